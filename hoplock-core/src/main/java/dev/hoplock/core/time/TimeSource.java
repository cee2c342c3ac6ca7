package dev.hoplock.core.time;

import java.time.Instant;

/**
 * The two clocks the elector reads: a wall clock for the {@code expires_at} it writes and compares, and a
 * monotonic clock for every deadline it keeps. Safety rests on the monotonic clock only.
 */
public interface TimeSource {

    /** The wall-clock time (may jump, may be skewed against other machines). */
    Instant wallNow();

    /** A monotonic reading in nanoseconds, meaningful only as a difference with another reading of this source. */
    long nanoTime();

    /** The real clocks of this machine. */
    static TimeSource system() {
        return SystemTime.INSTANCE;
    }
}
