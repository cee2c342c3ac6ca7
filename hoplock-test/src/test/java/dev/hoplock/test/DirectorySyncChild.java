package dev.hoplock.test;

import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.FilesystemBackend;
import dev.hoplock.core.backend.Handle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * A child JVM for {@link FilesystemBackendTest}: creates one key and prints the outcome on one line,
 * {@code WRITTEN} or {@code FAILED <kind> <message>}. Arguments: directory, key. Started without the capabilities
 * that let root ignore file permissions, so that a permission the test removed applies to it.
 */
public final class DirectorySyncChild {

    private DirectorySyncChild() {
    }

    public static void main(String[] args) {
        FilesystemBackend backend = new FilesystemBackend(Path.of(args[0]));
        try {
            backend.write(args[1], Handle.NONE, "x".getBytes(StandardCharsets.UTF_8), Duration.ofSeconds(10));
            System.out.println("WRITTEN");
        } catch (BackendException e) {
            System.out.println("FAILED " + e.kind() + " " + Objects.requireNonNull(e.getMessage(), "a BackendException has a message").replace('\n', ' '));
        }
    }
}
