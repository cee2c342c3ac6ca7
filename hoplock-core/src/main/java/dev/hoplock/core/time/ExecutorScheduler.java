package dev.hoplock.core.time;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * A {@link Scheduler} on one daemon thread in real time. Tasks run one at a time, in order of their due time.
 */
public final class ExecutorScheduler implements Scheduler, AutoCloseable {

    private final ScheduledExecutorService executor;

    public ExecutorScheduler(String threadName) {
        ThreadFactory factory = runnable -> {
            Thread thread = new Thread(runnable, threadName);
            thread.setDaemon(true);
            return thread;
        };
        this.executor = Executors.newSingleThreadScheduledExecutor(factory);
    }

    @Override
    public Cancellable schedule(Runnable task, Duration delay) {
        if (executor.isShutdown()) {
            return () -> { };
        }
        long nanos = Math.max(0, delay.toNanos());
        ScheduledFuture<?> future = executor.schedule(task, nanos, TimeUnit.NANOSECONDS);
        return () -> future.cancel(false);
    }

    /** Stops the thread; tasks not yet started are dropped. */
    @Override
    public void close() {
        executor.shutdownNow();
    }
}
