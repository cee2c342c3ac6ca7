package dev.hoplock.spring.leader;

/** What a {@link LeaderOnly} call does on an instance that does not lead its election. */
public enum OnNonLeader {

    /** Use {@code hoplock.leader-only.on-non-leader} (itself SKIP by default). */
    DEFAULT,

    /**
     * Do not run the method; return {@code null}, or an empty {@code Optional}, collection, map, stream or array as
     * fits the return type. Methods with a primitive (non-void) return type cannot be skipped and are refused at
     * startup.
     */
    SKIP,

    /** Do not run the method; throw {@link NotLeaderException}. */
    THROW
}
