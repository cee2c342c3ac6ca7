package dev.hoplock.s3;

import java.time.Duration;

/** The end of one backend call's time budget on the monotonic clock. */
final class Deadline {

    private static final Duration MINIMUM = Duration.ofMillis(1);

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

    /** The time left, at least one millisecond (the SDK refuses a zero timeout). */
    Duration remaining() {
        long left = endNanos - System.nanoTime();
        return left <= MINIMUM.toNanos() ? MINIMUM : Duration.ofNanos(left);
    }
}
