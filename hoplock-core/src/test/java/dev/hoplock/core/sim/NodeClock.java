package dev.hoplock.core.sim;

import dev.hoplock.core.time.Scheduler;
import dev.hoplock.core.time.TimeSource;
import dev.hoplock.core.time.VirtualTime;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;

/**
 * One simulated process's clocks and scheduler, on the simulation's shared {@link VirtualTime}; shared by the elector
 * simulation ({@link Simulation}) and the lock simulation ({@link LockSimulation}), through {@link SimWorld}.
 *
 * <ul>
 *   <li>Monotonic clock: the machine's ({@link Machine#local(long)}): its own origin (some near
 *       {@link Long#MAX_VALUE}, so that arithmetic wraps), a rate within the simulated drift bound, and standing still
 *       while the machine is suspended.</li>
 *   <li>Wall clock: the shared wall clock plus the machine's offset (which a fault may step). It goes on while the
 *       machine is suspended.</li>
 *   <li>Scheduler: a delay runs out when the monotonic clock has advanced by it, so a suspend delays every timer by
 *       its length. While the process is paused or its machine suspended, due tasks (timers and arriving answers
 *       alike) are held and run in due order when it resumes; once it is dead they never run. After every task the
 *       simulation's checker runs.</li>
 *   <li>Fault: while {@link Machine#schedulerFailure} is positive, the engine's own {@link #schedule} calls throw
 *       {@link RejectedExecutionException} or {@link IllegalStateException} with that probability (never during a call
 *       of the public API made by the simulation, see {@link #inApiCall}).</li>
 * </ul>
 */
final class NodeClock implements TimeSource, Scheduler {

    /** Marks the exceptions the simulation injects, so that a report of them is not taken for a bug. */
    static final String INJECTED = "injected by the simulation";

    private final SimWorld sim;
    private final Machine machine;
    private final List<Slot> held = new ArrayList<>();
    private boolean paused;
    private boolean dead;
    private boolean waking;
    /** True while the simulation calls the engine's public API (start, stepDown, closeAsync) on this process. */
    boolean inApiCall;

    NodeClock(SimWorld sim, Machine machine) {
        this.sim = sim;
        this.machine = machine;
    }

    @Override
    public Instant wallNow() {
        return sim.time.wallNow().plus(machine.wallOffset);
    }

    @Override
    public long nanoTime() {
        return machine.local(sim.time.nanoTime());
    }

    /** The engine's timers (the elector's, the named locks'): subject to the scheduler-failure fault. */
    @Override
    public Cancellable schedule(Runnable task, Duration delay) {
        if (machine.schedulerFailure > 0 && !inApiCall && sim.random.nextDouble() < machine.schedulerFailure) {
            if (sim.random.nextBoolean()) {
                sim.stats.count("sched.rejected");
                sim.traceOn(machine, "scheduler REJECTS a task of " + delay.toMillis() + "ms");
                throw new RejectedExecutionException("scheduler shut down (" + INJECTED + ")");
            }
            sim.stats.count("sched.threw");
            sim.traceOn(machine, "scheduler THROWS on a task of " + delay.toMillis() + "ms");
            throw new IllegalStateException("scheduler broken (" + INJECTED + ")");
        }
        return scheduleLocal(() -> runSwallowing(task), delay.toNanos());
    }

    /**
     * Runs an engine timer as a {@code ScheduledExecutorService} would: an exception thrown out of it is swallowed.
     * One that comes from an injected fault is counted (the engine must recover from it; the liveness bounds tell);
     * any other is a bug of the engine.
     */
    private void runSwallowing(Runnable task) {
        try {
            task.run();
        } catch (RuntimeException e) {
            if (!injected(e)) {
                sim.violationOn(machine, "a timer task of the engine threw " + e);
            }
            sim.stats.count("sched.timer-task-threw");
            sim.traceOn(machine, "a timer task threw " + e + " (swallowed, as a ScheduledExecutorService does)");
        }
    }

    static boolean injected(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (String.valueOf(t.getMessage()).contains(INJECTED)) {
                return true;
            }
        }
        return false;
    }

    /** A scheduler on the same clocks that never fails: the engine's fallback timer (a thread of the same process). */
    Scheduler fallback() {
        return (task, delay) -> scheduleLocal(() -> runSwallowing(task), delay.toNanos());
    }

    /** Runs {@code task} once this machine's monotonic clock has advanced by {@code localNanos}; never fails. */
    Cancellable scheduleLocal(Runnable task, long localNanos) {
        Slot slot = new Slot(task, nanoTime() + Math.max(0, localNanos));
        long shared = (long) Math.ceil(Math.max(0, localNanos) / machine.rate);
        slot.entry = sim.time.schedule(() -> deliver(slot), Duration.ofNanos(shared));
        return slot;
    }

    /** Schedules {@code task} after {@code sharedNanos} of shared (true) time, subject to pause, suspend and death. */
    Cancellable scheduleShared(Runnable task, long sharedNanos) {
        Slot slot = new Slot(task, null);
        slot.entry = sim.time.schedule(() -> deliver(slot), Duration.ofNanos(Math.max(0, sharedNanos)));
        return slot;
    }

    private void deliver(Slot slot) {
        if (slot.cancelled || dead) {
            return;
        }
        long now = sim.time.nanoTime();
        if (slot.localDue != null && machine.local(now) - slot.localDue < 0) {
            // A suspend stopped the monotonic clock: this timer is not due yet.
            if (machine.suspended()) {
                held.add(slot);
            } else {
                slot.entry = sim.time.schedule(() -> deliver(slot),
                        Duration.ofNanos(Math.max(1, machine.sharedUntil(slot.localDue, now))));
            }
            return;
        }
        if (paused || machine.suspended()) {
            held.add(slot);
            return;
        }
        slot.task.run();
        sim.afterTask();
    }

    void pause() {
        paused = true;
    }

    boolean paused() {
        return paused;
    }

    /** Neither paused nor on a suspended machine, nor dead: its threads can run. */
    boolean running() {
        return !paused && !dead && !machine.suspended();
    }

    /**
     * True while the tasks held during a pause or suspend run, one after the other, at the instant the process wakes.
     * On a real machine they would run concurrently, so the checker judges the process's leader work only once they
     * all ran.
     */
    boolean waking() {
        return waking;
    }

    /** Ends a pause: the held tasks run now, in the order they fell due. */
    void resume() {
        paused = false;
        releaseHeld();
    }

    /** The machine woke from a suspend: held answers run now; held timers wait for the monotonic clock. */
    void machineWoke() {
        releaseHeld();
    }

    private void releaseHeld() {
        List<Slot> due = new ArrayList<>(held);
        held.clear();
        waking = true;
        try {
            for (Slot slot : due) {
                deliver(slot);
            }
        } finally {
            waking = false;
        }
    }

    /** The process is gone (kill -9): nothing of it runs any more. */
    void kill() {
        dead = true;
        held.clear();
    }

    boolean dead() {
        return dead;
    }

    private static final class Slot implements Cancellable {
        final Runnable task;
        /** For timers: the monotonic reading at which it is due; null for deliveries measured in shared time. */
        final Long localDue;
        Cancellable entry;
        boolean cancelled;

        Slot(Runnable task, Long localDue) {
            this.task = task;
            this.localDue = localDue;
        }

        @Override
        public void cancel() {
            cancelled = true;
            if (entry != null) {
                entry.cancel();
            }
        }
    }
}
