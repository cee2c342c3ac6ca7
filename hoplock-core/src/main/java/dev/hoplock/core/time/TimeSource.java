package dev.hoplock.core.time;

import java.time.Instant;

/**
 * The two clocks the elector reads: a wall clock for the {@code expires_at} it writes and compares, and a
 * monotonic clock for every deadline it keeps. A leader leads only while its deadline holds on both: the monotonic
 * clock bounds a backward wall step, and the wall clock catches time the monotonic clock did not count (a suspended VM
 * or laptop, a checkpoint restore).
 */
public interface TimeSource {

    /** The wall-clock time (may jump, may be skewed against other machines). */
    Instant wallNow();

    /**
     * The wall clock in milliseconds since the epoch: {@link #wallNow()} truncated to milliseconds, read by the
     * leader-only gate at every call, so implementations should make it cheap.
     */
    default long wallMillis() {
        return wallNow().toEpochMilli();
    }

    /** A monotonic reading in nanoseconds, meaningful only as a difference with another reading of this source. */
    long nanoTime();

    /** The real clocks of this machine. */
    static TimeSource system() {
        return SystemTime.INSTANCE;
    }
}
