package dev.hoplock.core.lock;

/** Thrown to work whose lock has ended ({@link LockHandle#checkHeld()}, {@link LockHandle#enterScope}). */
public class LockLostException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public LockLostException(String message) {
        super(message);
    }
}
