package dev.hoplock.core.lock;

/**
 * Thrown by the blocking calls of {@link Locks} when the waiting thread was interrupted. The thread's interrupt flag is
 * set again; a lock the abandoned attempt took after all is released.
 */
public class LockInterruptedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public LockInterruptedException(String message, InterruptedException cause) {
        super(message, cause);
    }
}
