package dev.hoplock.core.lock;

/** What {@link LockHandle#release()} did. */
public enum ReleaseOutcome {
    /** The record was this acquisition's and is now released: anyone may take the lock at once. */
    RELEASED,
    /**
     * The lock was no longer this acquisition's (lost, taken over, or expired by the local clock): nothing that belongs
     * to anyone else was changed. If the record was still ours it was released all the same.
     */
    NOT_HELD,
    /** {@link LockHandle#release()} was called before on this handle; nothing was done. */
    ALREADY_RELEASED,
    /** The store did not answer: the record may still be ours and then expires by itself. The handle is released. */
    UNKNOWN
}
