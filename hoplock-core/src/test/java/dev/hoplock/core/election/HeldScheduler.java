package dev.hoplock.core.election;

import dev.hoplock.core.time.Scheduler;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;

/**
 * A scheduler over another one (virtual time) that a test can hold, as a stalled timer thread would be: tasks falling
 * due while held run only on {@link #release()}, in due order. It can also refuse the next calls to
 * {@link #schedule}, as a custom scheduler that is shut down or overloaded does.
 */
final class HeldScheduler implements Scheduler {

    private final Scheduler delegate;
    private final List<Runnable> held = new ArrayList<>();
    private boolean holding;
    /** The next this many calls to {@link #schedule} throw {@link RejectedExecutionException}. */
    int rejectNext;
    /** The next this many calls to {@link #schedule} throw {@link ArithmeticException}. */
    int overflowNext;
    int rejected;

    HeldScheduler(Scheduler delegate) {
        this.delegate = delegate;
    }

    @Override
    public Cancellable schedule(Runnable task, Duration delay) {
        if (rejectNext > 0) {
            rejectNext--;
            rejected++;
            throw new RejectedExecutionException("injected: scheduler rejects the task");
        }
        if (overflowNext > 0) {
            overflowNext--;
            rejected++;
            throw new ArithmeticException("injected: long overflow");
        }
        boolean[] cancelled = new boolean[1];
        Cancellable inner = delegate.schedule(() -> {
            if (cancelled[0]) {
                return;
            }
            synchronized (this) {
                if (holding) {
                    held.add(() -> {
                        if (!cancelled[0]) {
                            task.run();
                        }
                    });
                    return;
                }
            }
            task.run();
        }, delay);
        return () -> {
            cancelled[0] = true;
            inner.cancel();
        };
    }

    synchronized void hold() {
        holding = true;
    }

    /** Stops holding and runs the held tasks in the order they fell due. */
    void release() {
        List<Runnable> due;
        synchronized (this) {
            holding = false;
            due = new ArrayList<>(held);
            held.clear();
        }
        due.forEach(Runnable::run);
    }
}
