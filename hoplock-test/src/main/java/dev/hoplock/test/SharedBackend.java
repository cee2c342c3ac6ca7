package dev.hoplock.test;

import dev.hoplock.core.backend.Backend;
import org.jspecify.annotations.Nullable;

/**
 * One backend for every test of a test class, for a store that is costly to reach (a server, a connection pool):
 * the first {@link #get} call opens it, every later call returns that same backend (from any thread), and
 * {@link #close()}, run after the class, closes it, after which the next {@link #get} opens a new one. Keep it in a
 * {@code static final} field when JUnit makes an instance per test, as {@link BackendContractTest} does.
 *
 * @param <B> the backend's type
 */
public final class SharedBackend<B extends Backend> {

    /** Opens the backend. */
    @FunctionalInterface
    public interface Opener<B> {
        B open() throws Exception;
    }

    /** Closes the backend and whatever it holds. */
    @FunctionalInterface
    public interface Closer<B> {
        void close(B backend) throws Exception;
    }

    private final Closer<? super B> closer;
    private @Nullable B backend;

    /** A shared backend, none open yet, to be closed by {@code closer}. */
    public SharedBackend(Closer<? super B> closer) {
        this.closer = closer;
    }

    /** The open backend, opened by {@code opener} if there is none (a failed open leaves none, to be tried again). */
    public synchronized B get(Opener<? extends B> opener) throws Exception {
        B open = backend;
        if (open == null) {
            open = opener.open();
            backend = open;
        }
        return open;
    }

    /** Closes the open backend, if any; the next {@link #get} opens a new one. */
    public synchronized void close() throws Exception {
        B open = backend;
        backend = null;
        if (open != null) {
            closer.close(open);
        }
    }
}
