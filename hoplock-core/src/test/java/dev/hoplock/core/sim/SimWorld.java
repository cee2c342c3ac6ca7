package dev.hoplock.core.sim;

import dev.hoplock.core.time.VirtualTime;
import org.jspecify.annotations.Nullable;

import java.util.SplittableRandom;

/**
 * What the parts shared by the simulations ({@link NodeClock}, {@link MachineFaults}) need of the schedule they run in:
 * its one virtual time, its one seeded random source, its counters and trace, and its checker. The elector
 * simulation ({@link Simulation}) and the lock simulation ({@link LockSimulation}) implement it, so that a fault is
 * injected one way in both.
 *
 * <p>Guarantees of an implementation: everything runs on the calling thread, in the order of {@link #time()}, and
 * {@link #random()} is the schedule's only source of randomness, so a seed replays the same schedule.
 */
interface SimWorld {

    VirtualTime time();

    SplittableRandom random();

    SimStats stats();

    /** A line of the schedule's trace, for {@code machine}'s current process (null: the store's side). */
    void traceOn(@Nullable Machine machine, String action);

    /** A broken invariant found on {@code machine}'s current process: the schedule fails. */
    void violationOn(@Nullable Machine machine, String what);

    /** Runs the checker (and any guard against busy loops); called after every task the schedule runs. */
    void afterTask();

    /** Runs {@code task} on the store's side (no process's pause holds it) after {@code delayNanos}, then {@link #afterTask()}. */
    void global(Runnable task, long delayNanos);

    /** A number never returned before in this schedule: tells a fault's end from the end of a later one. */
    long nextEpoch();

    /** Uniform in {@code [from, to)}; {@code from} when the range is empty. */
    default long uniform(long from, long to) {
        return to <= from ? from : from + random().nextLong(to - from);
    }
}
