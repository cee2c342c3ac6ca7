package dev.hoplock.core.time;

import java.time.Duration;
import java.time.Instant;
import java.util.PriorityQueue;

/**
 * Deterministic virtual time for tests and simulations: a wall clock, a monotonic clock and a scheduler that move
 * only when {@link #advance(Duration)} or {@link #runDue()} is called, on the calling thread.
 *
 * <p>Guarantees: tasks run in order of due time, ties in order of scheduling; a task scheduled while time advances
 * runs in the same advance if it falls due within it. {@link #withWallOffset(Duration)} gives a view whose wall
 * clock is shifted (clock skew) while sharing the same monotonic time and task queue. Drive it ({@code advance}) from
 * one thread; other threads may schedule tasks and read the clocks while it does.
 */
public final class VirtualTime implements TimeSource, Scheduler {

    private final Shared shared;
    private final Duration wallOffset;

    /** Starts at the given wall-clock instant with monotonic time 0. */
    public VirtualTime(Instant start) {
        this(new Shared(start), Duration.ZERO);
    }

    private VirtualTime(Shared shared, Duration wallOffset) {
        this.shared = shared;
        this.wallOffset = wallOffset;
    }

    /** The same time and queue, with a wall clock that reads {@code offset} later (negative: earlier). */
    public VirtualTime withWallOffset(Duration offset) {
        return new VirtualTime(shared, offset);
    }

    @Override
    public Instant wallNow() {
        return shared.start.plusNanos(nanoTime()).plus(wallOffset);
    }

    @Override
    public long nanoTime() {
        synchronized (shared) {
            return shared.now;
        }
    }

    /** Virtual time elapsed since the start. */
    public Duration elapsed() {
        return Duration.ofNanos(nanoTime());
    }

    @Override
    public Cancellable schedule(Runnable task, Duration delay) {
        synchronized (shared) {
            Entry entry = new Entry(shared.now + Math.max(0, delay.toNanos()), shared.sequence++, task);
            shared.queue.add(entry);
            return () -> entry.cancelled = true;
        }
    }

    /** Runs every task due now, including those they schedule for now. */
    public void runDue() {
        advance(Duration.ZERO);
    }

    /** Moves time forward by {@code duration}, running each task at its due time. */
    public void advance(Duration duration) {
        long target;
        synchronized (shared) {
            target = shared.now + duration.toNanos();
        }
        while (true) {
            Entry next;
            synchronized (shared) {
                next = shared.queue.peek();
                if (next == null || next.due > target) {
                    shared.now = Math.max(shared.now, target);
                    return;
                }
                shared.queue.poll();
                if (next.cancelled) {
                    continue;
                }
                shared.now = Math.max(shared.now, next.due);
            }
            next.task.run();
        }
    }

    /** The number of tasks waiting, not counting cancelled ones (NamedLocksTest: no timer per idle name). */
    public int pendingTasks() {
        synchronized (shared) {
            return (int) shared.queue.stream().filter(e -> !e.cancelled).count();
        }
    }

    private static final class Shared {
        final Instant start;
        final PriorityQueue<Entry> queue = new PriorityQueue<>();
        long now;
        long sequence;

        Shared(Instant start) {
            this.start = start;
        }
    }

    private static final class Entry implements Comparable<Entry> {
        final long due;
        final long sequence;
        final Runnable task;
        volatile boolean cancelled;

        Entry(long due, long sequence, Runnable task) {
            this.due = due;
            this.sequence = sequence;
            this.task = task;
        }

        @Override
        public int compareTo(Entry other) {
            int byDue = Long.compare(due, other.due);
            return byDue != 0 ? byDue : Long.compare(sequence, other.sequence);
        }
    }
}
