package dev.hoplock.elasticsearch;

import java.time.Duration;

/**
 * The end of one backend call's time budget on the monotonic clock, so that every request of a call (a refused
 * write's follow-up read, the start-up check's steps) gets only what is left.
 */
final class Deadline {

    private final Duration budget;
    private final long endNanos;

    private Deadline(Duration budget) {
        this.budget = budget;
        this.endNanos = System.nanoTime() + budget.toNanos();
    }

    static Deadline after(Duration budget) {
        return new Deadline(budget);
    }

    /** The whole budget this deadline was made with. */
    Duration budget() {
        return budget;
    }

    /** The time left; zero or negative once the deadline has passed. */
    Duration remaining() {
        return Duration.ofNanos(endNanos - System.nanoTime());
    }

    boolean hasTimeLeft() {
        return endNanos - System.nanoTime() > 0;
    }
}
