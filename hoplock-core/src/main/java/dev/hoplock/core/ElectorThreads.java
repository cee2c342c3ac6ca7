package dev.hoplock.core;

import dev.hoplock.core.backend.AsyncBackend;
import dev.hoplock.core.time.ExecutorScheduler;
import dev.hoplock.core.time.Scheduler;
import org.jspecify.annotations.Nullable;

import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads an {@link Elector} owns: a scheduler thread for the loop's timers, a pool for blocking backend calls and
 * a thread for event delivery, each created only when the builder was not given one, all daemon threads named
 * {@code hoplock-<role>-<key>-<n>}.
 *
 * <p>Guarantees: {@link #close()} stops exactly the threads created here (never an executor or scheduler the user
 * gave), and may be called once the elector has finished closing.
 */
final class ElectorThreads {

    private static final AtomicInteger THREADS = new AtomicInteger();

    private final String suffix;
    private final Scheduler scheduler;
    private final AsyncBackend backend;
    private final Executor eventExecutor;
    private final @Nullable ExecutorScheduler ownScheduler;
    private final @Nullable ExecutorService ownIo;
    private final @Nullable ExecutorService ownEvents;

    ElectorThreads(Elector.Builder builder, String key) {
        this.suffix = key + "-" + THREADS.incrementAndGet();
        if (builder.scheduler != null) {
            this.scheduler = builder.scheduler;
            this.ownScheduler = null;
        } else {
            this.ownScheduler = new ExecutorScheduler("hoplock-elector-" + suffix);
            this.scheduler = ownScheduler;
        }
        ExecutorService io = null;
        if (builder.asyncBackend != null) {
            this.backend = builder.asyncBackend;
        } else {
            Executor ioExecutor = builder.ioExecutor;
            if (ioExecutor == null) {
                io = Executors.newCachedThreadPool(daemonThreads("hoplock-io-" + suffix));
                ioExecutor = io;
            }
            this.backend = AsyncBackend.on(java.util.Objects.requireNonNull(builder.backend, "backend"), ioExecutor);
        }
        this.ownIo = io;
        if (builder.eventExecutor != null) {
            this.eventExecutor = builder.eventExecutor;
            this.ownEvents = null;
        } else {
            this.ownEvents = Executors.newSingleThreadExecutor(daemonThreads("hoplock-events-" + suffix));
            this.eventExecutor = ownEvents;
        }
    }

    /** Where the loop's timers run. */
    Scheduler scheduler() {
        return scheduler;
    }

    /** The name of the fallback timer thread, should the scheduler refuse a timer. */
    String fallbackThreadName() {
        return "hoplock-fallback-timer-" + suffix;
    }

    /** The backend, made non-blocking on the I/O executor when it was a blocking one. */
    AsyncBackend backend() {
        return backend;
    }

    /** Where events are delivered. */
    Executor eventExecutor() {
        return eventExecutor;
    }

    /** Stops the threads created here. */
    void close() {
        if (ownScheduler != null) {
            ownScheduler.close();
        }
        if (ownIo != null) {
            ownIo.shutdown();
        }
        if (ownEvents != null) {
            ownEvents.shutdown();
        }
    }

    private static ThreadFactory daemonThreads(String name) {
        AtomicInteger counter = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, name + "-" + counter.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
