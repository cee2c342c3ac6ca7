package dev.hoplock.test;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.FilesystemBackend;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** Runs the named-lock contract against {@link FilesystemBackend} in a fresh temporary directory per test. */
class FilesystemLockContractTest extends LockContractTest {

    @TempDir
    Path directory;

    @Override
    protected Backend backend() {
        return new FilesystemBackend(directory);
    }
}
