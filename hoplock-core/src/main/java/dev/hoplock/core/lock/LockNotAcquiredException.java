package dev.hoplock.core.lock;

/**
 * Thrown by {@link Locks#withLock} when the lock could not be taken, so the task did not run; {@link #answer()} is the
 * store's answer (held by another owner, or unavailable; or {@link AcquireResult.Acquired} with
 * {@code extended() == true} when this instance already held it).
 */
public class LockNotAcquiredException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient AcquireResult answer;

    public LockNotAcquiredException(String message, AcquireResult answer) {
        super(message);
        this.answer = answer;
    }

    /** Why the lock was not taken. */
    public AcquireResult answer() {
        return answer;
    }
}
