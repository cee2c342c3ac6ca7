package dev.hoplock.core;

import dev.hoplock.core.backend.AsyncBackend;
import dev.hoplock.core.time.ExecutorScheduler;
import dev.hoplock.core.time.Scheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads a {@link NamedLocks} owns: one scheduler thread for every name's timers (timeouts, deadlines,
 * keep-alives, with a fallback timer if the scheduler throws), a cached pool for a blocking backend's calls and one
 * thread for event delivery, each created only when the builder was not given one, all daemon threads named
 * {@code hoplock-locks-<role>-<n>}.
 *
 * <p>Guarantees: {@link #close()} stops the timers and exactly the threads created here (never an executor or scheduler
 * the user gave), in the order they were created; a failure to stop one is logged and does not stop the others.
 */
final class LockThreads {

    private static final Logger log = LoggerFactory.getLogger(NamedLocks.class);
    private static final AtomicInteger INSTANCES = new AtomicInteger();

    private final AsyncBackend backend;
    private final LoopTimers timers;
    private final Executor eventExecutor;
    private final List<AutoCloseable> ownResources = new ArrayList<>();

    LockThreads(NamedLocks.Builder builder) {
        int instance = INSTANCES.incrementAndGet();
        Scheduler scheduler = builder.scheduler;
        if (scheduler == null) {
            ExecutorScheduler own = new ExecutorScheduler("hoplock-locks-" + instance);
            ownResources.add(own);
            scheduler = own;
        }
        this.timers = new LoopTimers(scheduler, builder.fallbackScheduler, "hoplock-locks-fallback-" + instance,
                e -> log.error("hoplock: the lock scheduler failed; using a fallback timer", e));
        if (builder.asyncBackend != null) {
            this.backend = builder.asyncBackend;
        } else {
            Executor io = builder.ioExecutor;
            if (io == null) {
                ExecutorService pool = Executors.newCachedThreadPool(daemon("hoplock-locks-io-" + instance));
                ownResources.add(pool::shutdownNow);
                io = pool;
            }
            this.backend = AsyncBackend.on(Objects.requireNonNull(builder.backend, "backend"), io);
        }
        Executor events = builder.eventExecutor;
        if (events == null) {
            ExecutorService single = Executors.newSingleThreadExecutor(daemon("hoplock-locks-events-" + instance));
            ownResources.add(single::shutdown);
            events = single;
        }
        this.eventExecutor = events;
    }

    AsyncBackend backend() {
        return backend;
    }

    LoopTimers timers() {
        return timers;
    }

    Executor eventExecutor() {
        return eventExecutor;
    }

    void close() {
        timers.close();
        for (AutoCloseable resource : ownResources) {
            try {
                resource.close();
            } catch (Exception e) {
                log.debug("hoplock: closing a lock resource failed", e);
            }
        }
    }

    private static ThreadFactory daemon(String name) {
        AtomicInteger counter = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, name + "-" + counter.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
