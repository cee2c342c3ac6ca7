package dev.hoplock.core.sim;

import dev.hoplock.core.time.Scheduler;
import dev.hoplock.core.time.TimeSource;
import dev.hoplock.core.time.VirtualTime;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * One simulated process's clocks and scheduler, on the simulation's shared {@link VirtualTime}.
 *
 * <ul>
 *   <li>Monotonic clock: {@code origin + floor(shared * rate)}: every machine has its own origin (some near
 *       {@link Long#MAX_VALUE}, so that arithmetic wraps) and a rate within the simulated drift bound.</li>
 *   <li>Wall clock: the shared wall clock plus the machine's offset (which a fault may step).</li>
 *   <li>Scheduler: a local delay {@code d} runs after {@code ceil(d / rate)} of shared time. While the process is
 *       paused its due tasks (timers and arriving answers alike) are held and run in due order when it resumes;
 *       once it is dead they never run. After every task the simulation's checker runs.</li>
 * </ul>
 */
final class NodeClock implements TimeSource, Scheduler {

    private final Simulation sim;
    private final Machine machine;
    private final List<Slot> held = new ArrayList<>();
    private boolean paused;
    private boolean dead;

    NodeClock(Simulation sim, Machine machine) {
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

    @Override
    public Cancellable schedule(Runnable task, Duration delay) {
        long local = Math.max(0, delay.toNanos());
        long shared = (long) Math.ceil(local / machine.rate);
        return scheduleShared(task, shared);
    }

    /** Schedules {@code task} after {@code sharedNanos} of shared (true) time, subject to pause and death. */
    Cancellable scheduleShared(Runnable task, long sharedNanos) {
        Slot slot = new Slot(task);
        slot.entry = sim.time.schedule(() -> fire(slot), Duration.ofNanos(Math.max(0, sharedNanos)));
        return slot;
    }

    private void fire(Slot slot) {
        if (slot.cancelled || dead) {
            return;
        }
        if (paused) {
            held.add(slot);
            return;
        }
        run(slot);
    }

    private void run(Slot slot) {
        slot.task.run();
        sim.afterTask();
    }

    void pause() {
        paused = true;
    }

    boolean paused() {
        return paused;
    }

    /** Ends a pause: the held tasks run now, in the order they fell due. */
    void resume() {
        paused = false;
        List<Slot> due = new ArrayList<>(held);
        held.clear();
        for (Slot slot : due) {
            if (!slot.cancelled && !dead && !paused) {
                run(slot);
            } else if (paused && !slot.cancelled) {
                held.add(slot);
            }
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
        Cancellable entry;
        boolean cancelled;

        Slot(Runnable task) {
            this.task = task;
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
