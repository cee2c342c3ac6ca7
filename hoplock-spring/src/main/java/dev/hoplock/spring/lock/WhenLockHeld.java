package dev.hoplock.spring.lock;

/** What a {@link WithLock} call does when it cannot take its lock. */
public enum WhenLockHeld {

    /** Use {@code hoplock.locks.when-held} (itself SKIP by default). */
    DEFAULT,

    /**
     * Do not run the method; return {@code null}, or an empty {@code Optional}, collection, map, stream or array as
     * fits the return type (as {@link dev.hoplock.spring.leader.OnNonLeader#SKIP}). Methods with a primitive
     * (non-void) return type are refused at start-up.
     */
    SKIP,

    /** Do not run the method; throw {@link LockNotTakenException}. */
    THROW
}
