package dev.hoplock.core;

import dev.hoplock.core.time.TimeSource;
import dev.hoplock.core.time.VirtualTime;

import java.time.Duration;
import java.time.Instant;

/**
 * A machine's clocks over virtual time whose wall clock a test moves apart from the monotonic clock: a step (as after
 * a VM suspend or a checkpoint restore, when the monotonic clock stood still while the wall clock went on) or a rate.
 */
public final class SkewedWallClock implements TimeSource {

    private final VirtualTime time;
    private volatile long stepNanos;
    private volatile double extraRate;

    public SkewedWallClock(VirtualTime time) {
        this.time = time;
    }

    /** The wall clock jumps by {@code step}; the monotonic clock does not move. */
    public void step(Duration step) {
        stepNanos += step.toNanos();
    }

    /** From now on the wall clock runs {@code rate} times as fast as the monotonic clock. */
    public void wallRate(double rate) {
        stepNanos -= (long) ((rate - 1 - extraRate) * time.nanoTime());
        extraRate = rate - 1;
    }

    @Override
    public Instant wallNow() {
        return time.wallNow().plusNanos(stepNanos + (long) (extraRate * time.nanoTime()));
    }

    @Override
    public long nanoTime() {
        return time.nanoTime();
    }
}
