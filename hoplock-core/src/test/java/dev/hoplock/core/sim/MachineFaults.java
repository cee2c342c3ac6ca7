package dev.hoplock.core.sim;

import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.function.Function;

/**
 * The faults of one {@link Machine} that the elector simulation ({@link Simulation}) and the lock simulation
 * ({@link LockSimulation}) inject the same way, with the same draws from the schedule's random source: windows of
 * synchronous answers and of a failing scheduler, machine suspends, wall-clock steps, and their end at the heal.
 *
 * <p>Guarantees (the fairness rules both simulations rely on): a suspend never begins within a TTL after a wall-clock
 * step of the same machine, and a wall-clock step never happens during a suspend or within a TTL after a wake, since
 * when both clocks lie within one term no local rule can tell that time passed. Every window ends at its own end or
 * at the heal, whichever comes first.
 */
final class MachineFaults {

    private static final long MS = 1_000_000L;
    private static final long S = 1_000 * MS;

    private final SimWorld sim;
    /** The clock of the process running on a machine now, or null when none is alive there. */
    private final Function<Machine, @Nullable NodeClock> runningClock;

    MachineFaults(SimWorld sim, Function<Machine, @Nullable NodeClock> runningClock) {
        this.sim = sim;
        this.runningClock = runningClock;
    }

    /** A window (5 s to 2 TTL) in which half of {@code m}'s requests are answered inside the call. */
    void synchronousAnswers(Machine m, long ttl) {
        long length = sim.uniform(5 * S, ttl * 2);
        sim.stats.count("fault.sync-answers");
        sim.traceOn(null, m.name + " SYNCHRONOUS ANSWERS for " + Duration.ofNanos(length).toMillis() + "ms");
        m.synchronousAnswers = true;
        long epoch = sim.nextEpoch();
        m.syncEpoch = epoch;
        sim.global(() -> {
            if (m.syncEpoch == epoch) {
                m.synchronousAnswers = false;
            }
        }, length);
    }

    /** A window (1 s to a TTL) in which 5 to 50 % of the engine's {@code schedule()} calls on {@code m} throw. */
    void schedulerFailure(Machine m, long ttl) {
        long length = sim.uniform(S, ttl);
        m.schedulerFailure = 0.05 + sim.random.nextDouble() * 0.45;
        sim.stats.count("fault.scheduler-failure");
        sim.traceOn(null, m.name + " SCHEDULER FAILS " + (int) (m.schedulerFailure * 100) + "% of calls for "
                + Duration.ofNanos(length).toMillis() + "ms");
        long epoch = sim.nextEpoch();
        m.schedulerEpoch = epoch;
        sim.global(() -> {
            if (m.schedulerEpoch == epoch) {
                m.schedulerFailure = 0;
            }
        }, length);
    }

    /**
     * Suspends {@code m} (its monotonic clock and timers stop, its wall clock goes on): 4 in 10 for 1 to 2.5 TTL, the
     * others for 50 ms to a TTL. Not while suspended, nor within a TTL after a wall-clock step.
     */
    void suspend(Machine m, long ttl) {
        if (m.suspended() || sim.time.nanoTime() - m.wallSteppedAt < ttl) {
            // See the wall-clock step: both clocks must not lie within one term.
            return;
        }
        long length = sim.random.nextInt(10) < 4 ? sim.uniform(ttl, ttl * 5 / 2) : sim.uniform(50 * MS, ttl);
        sim.stats.count(length > ttl ? "fault.suspend-longer-than-ttl" : "fault.suspend-shorter-than-ttl");
        sim.traceOn(null, m.name + " SUSPENDED (monotonic clock stops, wall clock goes on) for "
                + Duration.ofNanos(length).toMillis() + "ms");
        m.suspend(sim.time.nanoTime());
        sim.global(() -> wake(m), length);
    }

    /** Ends a suspend of {@code m}: its clocks run again, and the answers its process holds are delivered. */
    void wake(Machine m) {
        if (!m.suspended()) {
            return;
        }
        m.wake(sim.time.nanoTime());
        sim.traceOn(null, m.name + " WAKES from suspend");
        NodeClock clock = runningClock.apply(m);
        if (clock != null) {
            clock.machineWoke();
        }
    }

    /**
     * Whether {@code m}'s wall clock may step now: not during a suspend, nor within a TTL after one (before the term
     * it interrupted has ended), which would make both clocks lie at once.
     */
    boolean mayStepWall(Machine m, long ttl) {
        return !m.suspended() && sim.time.nanoTime() - m.wokeAt() >= ttl;
    }

    /** Steps {@code m}'s wall clock to {@code offset} from the true time (only when {@link #mayStepWall} allows it). */
    void stepWall(Machine m, Duration offset) {
        m.wallOffset = offset;
        m.wallSteppedAt = sim.time.nanoTime();
        sim.stats.count("fault.wall-clock-step");
        sim.traceOn(null, m.name + " WALL CLOCK now offset " + offset.toMillis() + "ms");
    }

    /** The heal: {@code m}'s windows end and it wakes; returns whether it was suspended until now. */
    boolean heal(Machine m) {
        m.synchronousAnswers = false;
        m.syncEpoch = -1;
        m.schedulerFailure = 0;
        m.schedulerEpoch = -1;
        boolean suspended = m.suspended();
        wake(m);
        return suspended;
    }
}
