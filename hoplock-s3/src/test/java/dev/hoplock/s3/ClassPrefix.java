package dev.hoplock.s3;

import dev.hoplock.core.backend.BackendException;

/**
 * The store of one contract-test class: one backend on one fresh prefix ({@link TestS3#uniquePrefix}) of the test
 * bucket, made by the first {@link #backend(Opener)} call, returned again to every later call (from any thread), and
 * closed by {@link #close()}, after which the next call makes a new one.
 */
final class ClassPrefix {

    /** Builds a backend over a given prefix of the server under test. */
    @FunctionalInterface
    interface Opener {
        S3Backend open(String prefix) throws BackendException;
    }

    private final String purpose;
    private S3Backend backend;

    /** {@code purpose} goes into the prefix. */
    ClassPrefix(String purpose) {
        this.purpose = purpose;
    }

    synchronized S3Backend backend(Opener opener) throws BackendException {
        if (backend == null) {
            backend = opener.open(TestS3.uniquePrefix(purpose));
        }
        return backend;
    }

    synchronized void close() {
        if (backend != null) {
            backend.close();
            backend = null;
        }
    }
}
