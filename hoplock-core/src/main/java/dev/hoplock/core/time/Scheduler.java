package dev.hoplock.core.time;

import java.time.Duration;

/**
 * Runs tasks after a delay measured on the matching {@link TimeSource}'s monotonic clock. The elector never
 * sleeps: every wait is a scheduled task, which is what lets tests run it in virtual time.
 */
public interface Scheduler {

    /** Runs {@code task} once after {@code delay} (zero or negative: as soon as possible). */
    Cancellable schedule(Runnable task, Duration delay);

    /** A scheduled task that may still be called off. */
    interface Cancellable {
        /** Prevents the task from running if it has not started. */
        void cancel();
    }
}
