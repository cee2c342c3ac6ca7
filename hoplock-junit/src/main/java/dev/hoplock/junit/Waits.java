package dev.hoplock.junit;

import dev.hoplock.core.time.HumanDurations;
import dev.hoplock.core.time.VirtualTime;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * How {@link HoplockControl} waits until an engine reports the state it was driven to: in real time (the engines run
 * on their own threads; the condition is checked every few milliseconds) or in virtual time (the engines run on the
 * {@link VirtualTime} the test drives; time is advanced in small steps on the calling thread until the condition
 * holds).
 *
 * <p>Guarantees: {@link #until} returns only once the condition held, and otherwise throws an {@link AssertionError}
 * after the limit, naming what was awaited, how long, and the state the caller describes. It never sleeps longer than
 * one check interval past the moment the condition holds.
 */
public final class Waits {

    private static final Duration REAL_CHECK = Duration.ofMillis(5);
    private static final Duration VIRTUAL_STEP = Duration.ofMillis(100);

    private final Duration limit;
    private final @Nullable VirtualTime virtualTime;

    private Waits(Duration limit, @Nullable VirtualTime virtualTime) {
        if (limit.isNegative() || limit.isZero()) {
            throw new IllegalArgumentException("the wait limit must be positive, not " + limit);
        }
        this.limit = limit;
        this.virtualTime = virtualTime;
    }

    /** Waits in real time, up to {@code limit}, for engines that run on their own threads. */
    public static Waits realTime(Duration limit) {
        return new Waits(limit, null);
    }

    /** Advances {@code time} in steps of 100 ms, up to {@code limit} of virtual time, for engines that run on it. */
    public static Waits virtualTime(VirtualTime time, Duration limit) {
        return new Waits(limit, time);
    }

    /** Whether this waits by advancing virtual time. */
    public boolean isVirtual() {
        return virtualTime != null;
    }

    /** The longest wait, in real or virtual time. */
    public Duration limit() {
        return limit;
    }

    /**
     * Returns once {@code condition} holds; throws an {@link AssertionError} after the limit.
     *
     * @param what  what is awaited, for the message ("'default' to lead")
     * @param state the state at the time of the failure, for the message (called only on failure)
     */
    public void until(BooleanSupplier condition, String what, Supplier<String> state) {
        VirtualTime virtualTime = this.virtualTime;
        if (virtualTime != null) {
            Duration start = virtualTime.elapsed();
            virtualTime.runDue();
            while (!condition.getAsBoolean()) {
                if (virtualTime.elapsed().minus(start).compareTo(limit) >= 0) {
                    throw timedOut(what, "of virtual time", state);
                }
                virtualTime.advance(VIRTUAL_STEP);
            }
            return;
        }
        long deadline = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline >= 0) {
                throw timedOut(what, "", state);
            }
            if (Thread.currentThread().isInterrupted()) {
                throw new AssertionError("interrupted while waiting for " + what);
            }
            LockSupport.parkNanos(REAL_CHECK.toNanos());
        }
    }

    private AssertionError timedOut(String what, String kind, Supplier<String> state) {
        return new AssertionError("hoplock test control: waited " + HumanDurations.format(limit)
                + (kind.isEmpty() ? "" : " " + kind) + " for " + what + ", in vain. Now: " + state.get()
                + ". If the engine is not started, start it; if it is stepping down (a step-down pauses campaigning for"
                + " one TTL), wait longer or " + (isVirtual() ? "advance the clock" : "use a shorter TTL") + ".");
    }
}
