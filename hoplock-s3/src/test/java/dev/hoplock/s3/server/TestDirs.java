package dev.hoplock.s3.server;

import java.nio.file.Path;
import java.nio.file.Paths;

/** The module's build directory, where test servers keep their logs and data. */
public final class TestDirs {

    private TestDirs() {
    }

    /** {@code target/} of this module (set by Surefire; the working directory's {@code target/} otherwise). */
    public static Path target() {
        return Paths.get(System.getProperty("hoplock.test.dir", "target")).toAbsolutePath();
    }
}
