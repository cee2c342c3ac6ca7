package dev.hoplock.core.internal.runtime;

import dev.hoplock.core.backend.AsyncBackend;
import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.election.Elector;
import dev.hoplock.core.lock.NamedLocks;
import dev.hoplock.core.time.ExecutorScheduler;
import dev.hoplock.core.time.Scheduler;
import dev.hoplock.core.time.TimeSource;
import org.jspecify.annotations.Nullable;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Where an engine ({@link Elector}, {@link NamedLocks}, {@link dev.hoplock.core.ownership.OwnershipGroup}) runs: its
 * store, its clocks, the scheduler for its timers, where blocking store calls run and where events are delivered. The
 * engines' builders collect these in a {@link Builder}; the engine starts what was not given ({@link Builder#start})
 * and stops it again ({@link #close()}). It is the one copy of this plumbing the three engines share, not an API of
 * its own: use the engines' builders.
 *
 * <p>Guarantees: the store is used non-blocking, a blocking {@link Backend} on the I/O executor; a thread is created
 * only for what the builder was not given (a scheduler thread, a cached pool of I/O threads for a blocking store, one
 * event thread), all daemon threads named as {@link ThreadNames} says; {@link #close()} stops exactly those threads
 * (never a scheduler or executor the user gave).
 */
public final class EngineRuntime implements AutoCloseable {

    private final TimeSource time;
    private final Scheduler scheduler;
    private final @Nullable Scheduler fallbackScheduler;
    private final String fallbackThreadName;
    private final AsyncBackend backend;
    private final Executor eventExecutor;
    private final List<Runnable> ownThreads = new ArrayList<>();

    private EngineRuntime(Builder given, ThreadNames names) {
        this.time = given.time;
        this.fallbackScheduler = given.fallbackScheduler;
        this.fallbackThreadName = names.fallbackTimer();
        Scheduler timers = given.scheduler;
        if (timers == null) {
            ExecutorScheduler own = new ExecutorScheduler(names.scheduler());
            ownThreads.add(own::close);
            timers = own;
        }
        this.scheduler = timers;
        this.backend = given.onBackend(blocking -> AsyncBackend.on(blocking, ioExecutor(given, names)),
                nonBlocking -> nonBlocking);
        Executor events = given.eventExecutor;
        if (events == null) {
            ExecutorService single = Executors.newSingleThreadExecutor(daemonThreads(names.events()));
            ownThreads.add(single::shutdown);
            events = single;
        }
        this.eventExecutor = events;
    }

    /** Collects the runtime settings for a store that answers on the calling thread. */
    public static Builder over(Backend backend) {
        return new Builder(Objects.requireNonNull(backend, "backend"), null);
    }

    /** Collects the runtime settings for a store that answers asynchronously (simulations). */
    public static Builder over(AsyncBackend backend) {
        return new Builder(null, Objects.requireNonNull(backend, "backend"));
    }

    /** The clocks. */
    public TimeSource time() {
        return time;
    }

    /**
     * The engine's timers: {@link #scheduler()}, and when it throws the fallback timer given, or one started on first
     * need and stopped by {@link LoopTimers#close()}.
     */
    public LoopTimers timers(Consumer<RuntimeException> onSchedulerFailure) {
        return new LoopTimers(scheduler, fallbackScheduler, fallbackThreadName, onSchedulerFailure);
    }

    /** Where the engine's timers run. */
    public Scheduler scheduler() {
        return scheduler;
    }

    /** Stops the threads started for this runtime, in the order they were started (tasks not yet begun dropped). */
    @Override
    public void close() {
        ownThreads.forEach(Runnable::run);
    }

    /** The store, made non-blocking on the I/O executor when it was a blocking one. */
    public AsyncBackend backend() {
        return backend;
    }

    /** Where events are delivered. */
    public Executor eventExecutor() {
        return eventExecutor;
    }

    private Executor ioExecutor(Builder given, ThreadNames names) {
        if (given.ioExecutor != null) {
            return given.ioExecutor;
        }
        ExecutorService pool = Executors.newCachedThreadPool(daemonThreads(names.io()));
        ownThreads.add(pool::shutdown);
        return pool;
    }

    private static ThreadFactory daemonThreads(String name) {
        AtomicInteger counter = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, name + "-" + counter.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    /**
     * The names of the threads an engine may start: its scheduler thread, the I/O and event threads (each numbered
     * {@code -1}, {@code -2}, ...) and the fallback timer's thread.
     */
    public record ThreadNames(String scheduler, String io, String events, String fallbackTimer) {
    }

    /**
     * The runtime settings an engine's builder collects. Null is never a value: each setter refuses it, and a setting
     * left unset takes its default (the system's clocks; threads owned by the engine for the rest). Not thread-safe,
     * like the builders that hold it.
     */
    public static final class Builder {

        private final @Nullable Backend blockingBackend;
        private final @Nullable AsyncBackend asyncBackend;
        private TimeSource time = TimeSource.system();
        private @Nullable Scheduler scheduler;
        private @Nullable Scheduler fallbackScheduler;
        private @Nullable Executor ioExecutor;
        private @Nullable Executor eventExecutor;

        private Builder(@Nullable Backend blockingBackend, @Nullable AsyncBackend asyncBackend) {
            this.blockingBackend = blockingBackend;
            this.asyncBackend = asyncBackend;
        }

        /** The clocks (tests: {@link dev.hoplock.core.time.VirtualTime}); default the system's. */
        public void time(TimeSource time) {
            this.time = Objects.requireNonNull(time, "time");
        }

        /** Where timers run (tests: {@link dev.hoplock.core.time.VirtualTime}); default a thread owned by the engine. */
        public void scheduler(Scheduler scheduler) {
            this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        }

        /** Where timers run when the scheduler throws; default a thread started on first need. */
        public void fallbackScheduler(Scheduler fallbackScheduler) {
            this.fallbackScheduler = Objects.requireNonNull(fallbackScheduler, "fallbackScheduler");
        }

        /** Where a blocking store's calls run; default a cached pool of threads owned by the engine. */
        public void ioExecutor(Executor ioExecutor) {
            this.ioExecutor = Objects.requireNonNull(ioExecutor, "ioExecutor");
        }

        /** Where events are delivered; default one thread owned by the engine. */
        public void eventExecutor(Executor eventExecutor) {
            this.eventExecutor = Objects.requireNonNull(eventExecutor, "eventExecutor");
        }

        /** The clocks set, or the system's. */
        public TimeSource time() {
            return time;
        }

        /** The I/O executor given, or null when the engine starts its own. */
        public @Nullable Executor ioExecutor() {
            return ioExecutor;
        }

        /** Applies {@code blocking} or {@code nonBlocking} to the store, whichever kind it is. */
        public <T> T onBackend(Function<Backend, T> blocking, Function<AsyncBackend, T> nonBlocking) {
            return blockingBackend != null ? blocking.apply(blockingBackend)
                    : nonBlocking.apply(Objects.requireNonNull(asyncBackend, "backend"));
        }

        /** Starts the threads that were not given, named as {@code names} says. */
        public EngineRuntime start(ThreadNames names) {
            return new EngineRuntime(this, names);
        }
    }
}
