package dev.hoplock.core.backend;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

/**
 * Which directory-sync failures are "not supported here" (ignored) and which are failures (reported). The texts are
 * the ones the JDK builds from {@code strerror} on Linux and macOS.
 */
class DirectorySyncTest {

    @TempDir
    Path directory;

    @Test
    void aRealDirectorySyncs() {
        assertThatCode(() -> DirectorySync.force(directory)).doesNotThrowAnyException();
    }

    @Test
    void onlyEinvalAndEbadfMeanUnsupported() {
        assertThat(DirectorySync.isUnsupported(new IOException("Invalid argument"))).isTrue();
        assertThat(DirectorySync.isUnsupported(new IOException("Bad file descriptor"))).isTrue();

        assertThat(DirectorySync.isUnsupported(new IOException("Input/output error"))).isFalse();
        assertThat(DirectorySync.isUnsupported(new IOException("No space left on device"))).isFalse();
        assertThat(DirectorySync.isUnsupported(new FileSystemException(directory.toString(), null,
                "Read-only file system"))).isFalse();
        assertThat(DirectorySync.isUnsupported(new AccessDeniedException(directory.toString()))).isFalse();
        assertThat(DirectorySync.isUnsupported(new IOException())).isFalse();
    }
}
