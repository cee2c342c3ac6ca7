package dev.hoplock.test;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.FilesystemBackend;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;

/** Runs the backend contract against {@link FilesystemBackend} in a fresh temporary directory per test. */
class FilesystemBackendContractTest extends BackendContractTest {

    @TempDir
    Path directory;

    @Override
    protected Backend backend() {
        return new FilesystemBackend(directory);
    }

    /** Deletes the directory with every file in it (lease, lock and temporary files) and creates it again, empty. */
    @Override
    protected void recreateContainer() throws IOException {
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
        Files.createDirectory(directory);
    }
}
