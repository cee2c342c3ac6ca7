package dev.hoplock.core.lock;

/** Thrown by {@link LockHandle#mustRelease()} when the release had no effect; {@link #outcome()} says why. */
public class LockNotHeldException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final ReleaseOutcome outcome;

    public LockNotHeldException(String message, ReleaseOutcome outcome) {
        super(message);
        this.outcome = outcome;
    }

    /** What the release did instead of releasing. */
    public ReleaseOutcome outcome() {
        return outcome;
    }
}
