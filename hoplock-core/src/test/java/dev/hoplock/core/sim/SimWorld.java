package dev.hoplock.core.sim;

import dev.hoplock.core.time.VirtualTime;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.time.Instant;
import java.util.SplittableRandom;

/**
 * What the parts shared by the simulations ({@link NodeClock}, {@link MachineFaults}) need of the schedule they run in:
 * its one virtual time, its one seeded random source, its counters and trace, and its checker. The elector
 * simulation ({@link Simulation}), the lock simulation ({@link LockSimulation}) and the membership simulation
 * ({@link MembershipSimulation}) extend it, so that a fault is injected one way in all.
 *
 * <p>Guarantees: everything runs on the calling thread, in the order of {@link #time}, and {@link #random} is the
 * schedule's only source of randomness, so a seed replays the same schedule; after every task the checker runs
 * ({@link #afterTask()}), and a busy loop in virtual time is a violation ({@link BusyLoopGuard}).
 */
abstract class SimWorld {

    final VirtualTime time;
    final SplittableRandom random;
    final SimStats stats = new SimStats();
    private final BusyLoopGuard busyLoops = new BusyLoopGuard();
    private long epochs;

    SimWorld(long seed, Instant start) {
        this.time = new VirtualTime(start);
        this.random = new SplittableRandom(seed);
    }

    /** A line of the schedule's trace, for {@code machine}'s current process (null: the store's side). */
    abstract void traceOn(@Nullable Machine machine, String action);

    /** A broken invariant found on {@code machine}'s current process (null: none in particular): the schedule fails. */
    abstract void violationOn(@Nullable Machine machine, String what);

    /** Runs every invariant at the current instant. */
    abstract void check();

    /** Called after every task the schedule runs: the busy-loop guard, then the checker. */
    final void afterTask() {
        String busy = busyLoops.taskRan(time.nanoTime());
        if (busy != null) {
            violationOn(null, busy);
        }
        check();
    }

    /** Runs {@code task} on the store's side (no process's pause holds it) after {@code delayNanos}, then {@link #afterTask()}. */
    final void global(Runnable task, long delayNanos) {
        time.schedule(() -> {
            task.run();
            afterTask();
        }, Duration.ofNanos(Math.max(0, delayNanos)));
    }

    /** A number never returned before in this schedule: tells a fault's end from the end of a later one. */
    final long nextEpoch() {
        return ++epochs;
    }

    /** Uniform in {@code [from, to)}; {@code from} when the range is empty. */
    final long uniform(long from, long to) {
        return to <= from ? from : from + random.nextLong(to - from);
    }
}
