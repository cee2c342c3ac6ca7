package dev.hoplock.core.ownership;

import dev.hoplock.core.backend.AsyncBackend;
import dev.hoplock.core.time.ExecutorScheduler;
import dev.hoplock.core.time.Scheduler;
import org.jspecify.annotations.Nullable;

import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The threads an {@link OwnershipGroup} owns: a scheduler thread for the membership loop's and the liveness elector's
 * timers, a thread for event delivery and a pool for blocking backend calls, each created only when the builder was
 * not given one, all daemon threads named {@code hoplock-membership[-events|-io]-<group>}.
 *
 * <p>Guarantees: {@link #close()} stops exactly the threads created here (never an executor or scheduler the user
 * gave), and is called once the group has finished leaving.
 */
final class GroupThreads {

    private final Scheduler scheduler;
    private final Executor eventExecutor;
    private final AsyncBackend backend;
    private final @Nullable ExecutorScheduler ownScheduler;
    private final @Nullable ExecutorService ownEvents;
    private final @Nullable ExecutorService ownIo;

    GroupThreads(OwnershipGroup.Builder b, String group) {
        if (b.scheduler != null) {
            this.scheduler = b.scheduler;
            this.ownScheduler = null;
        } else {
            this.ownScheduler = new ExecutorScheduler("hoplock-membership-" + group);
            this.scheduler = ownScheduler;
        }
        if (b.eventExecutor != null) {
            this.eventExecutor = b.eventExecutor;
            this.ownEvents = null;
        } else {
            this.ownEvents = Executors.newSingleThreadExecutor(r -> daemon(r, "hoplock-membership-events-" + group));
            this.eventExecutor = ownEvents;
        }
        ExecutorService io = null;
        if (b.asyncBackend != null) {
            this.backend = b.asyncBackend;
        } else {
            Executor ioExecutor = b.ioExecutor;
            if (ioExecutor == null) {
                io = Executors.newCachedThreadPool(r -> daemon(r, "hoplock-membership-io-" + group));
                ioExecutor = io;
            }
            this.backend = AsyncBackend.on(Objects.requireNonNull(b.backend, "backend"), ioExecutor);
        }
        this.ownIo = io;
    }

    Scheduler scheduler() {
        return scheduler;
    }

    Executor eventExecutor() {
        return eventExecutor;
    }

    /** The registry loop's backend: the given non-blocking one, or the blocking one on the I/O executor. */
    AsyncBackend backend() {
        return backend;
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

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }
}
