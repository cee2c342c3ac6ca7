package dev.hoplock.core.lock;

import org.jspecify.annotations.Nullable;

/**
 * Thrown to work whose lock has ended ({@link LockHandle#checkHeld()}, {@link LockHandle#enterScope}), and by
 * {@link Locks#withLock} when the lock was lost while its task ran and the task then failed: {@link #loss()} is the
 * loss (its {@link LockEvent.Lost#cause() cause} and detail), {@link #getCause()} what the task threw (often the
 * {@link InterruptedException} the loss delivered to its thread). The sibling of the elector's
 * {@code LeadershipLostException}.
 */
public class LockLostException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient LockEvent.@Nullable Lost loss;

    public LockLostException(String message) {
        super(message);
        this.loss = null;
    }

    /**
     * @param loss  the loss of the lock, as told to its listeners
     * @param cause what the work threw after the loss, or null
     */
    public LockLostException(String message, LockEvent.Lost loss, @Nullable Throwable cause) {
        super(message, cause);
        this.loss = loss;
    }

    /** The loss, when known (always for a lock lost inside {@link Locks#withLock}); null otherwise. */
    public LockEvent.@Nullable Lost loss() {
        return loss;
    }
}
