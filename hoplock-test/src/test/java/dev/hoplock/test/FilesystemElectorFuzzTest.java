package dev.hoplock.test;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.FilesystemBackend;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/**
 * The elector fuzz run over {@link FilesystemBackend} in a fresh temporary directory (static: the run happens in
 * {@code @BeforeAll}, before instance fields are injected).
 */
class FilesystemElectorFuzzTest extends ElectorFuzzTest {

    @TempDir
    static Path directory;

    @Override
    protected Backend backend() {
        return new FilesystemBackend(directory);
    }
}
