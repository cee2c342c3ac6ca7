package dev.hoplock.test;

import dev.hoplock.core.election.Elector;
import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.time.ExecutorScheduler;
import org.jspecify.annotations.Nullable;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * One incarnation of an elector in a fuzz run (one "process"): a real {@link Elector} over a {@link StallingBackend}
 * of the backend under test, with its own scheduler thread and I/O threads (so that the run can wait for stalled
 * calls at its end), a {@link LeaderWorker} thread and an {@link EventTrace}. Real time throughout; only the backend
 * calls, the scheduler thread and the worker are slowed.
 *
 * <p>It leaves its slot in one of two ways: {@link #close()} (graceful: the elector releases) or
 * {@link #freezeUntil(CountDownLatch)} (like a stopped process: its scheduler thread and backend calls block, its
 * worker stops, and the lease is left to expire; it resumes when the latch opens and is closed after that).
 */
final class FuzzedElector {

    private final String name;
    private final Elector elector;
    private final ExecutorScheduler scheduler;
    private final ExecutorService io;
    private final StallingBackend backend;
    private final LeaderWorker worker;
    private final Thread workerThread;
    private final EventTrace trace;
    private @Nullable CompletableFuture<Void> closing;

    private FuzzedElector(String name, Elector elector, ExecutorScheduler scheduler, ExecutorService io,
                          StallingBackend backend, LeaderWorker worker, EventTrace trace) {
        this.name = name;
        this.elector = elector;
        this.scheduler = scheduler;
        this.io = io;
        this.backend = backend;
        this.worker = worker;
        this.trace = trace;
        this.workerThread = new Thread(worker, "hoplock-fuzz-worker-" + name);
        this.workerThread.setDaemon(true);
    }

    /** Builds and starts an elector named {@code name} (also its owner id) on {@code key}. */
    static FuzzedElector start(String name, Backend store, String key, Duration ttl, Random random,
                               BooleanSupplier faultsOn, FuzzJournal journal) {
        Duration maxStall = ttl.multipliedBy(3).dividedBy(2);
        StallingBackend backend = new StallingBackend(store, name, new Random(random.nextLong()), maxStall, journal);
        backend.stalling(random.nextBoolean());
        ExecutorScheduler scheduler = new ExecutorScheduler("hoplock-fuzz-loop-" + name);
        ExecutorService io = Executors.newCachedThreadPool(daemonThreads("hoplock-fuzz-io-" + name + "-"));
        Elector elector = Elector.builder(backend, key)
                .owner(name)
                .ttl(ttl)
                .releaseTimeout(ttl)
                .scheduler(scheduler)
                .ioExecutor(io)
                .build();
        EventTrace trace = new EventTrace(name, journal.acquisitions);
        elector.events().subscribe(trace);
        journal.traced(trace);
        LeaderWorker worker = new LeaderWorker(name, elector, new Random(random.nextLong()), ttl, faultsOn, journal);
        FuzzedElector started = new FuzzedElector(name, elector, scheduler, io, backend, worker, trace);
        elector.start();
        started.workerThread.start();
        return started;
    }

    String name() {
        return name;
    }

    /** Switches the stalls of backend calls on or off (see {@link StallingBackend}). */
    void backendStalls(boolean on) {
        backend.stalling(on);
    }

    /** True while the elector leads (by its own clock). */
    boolean isLeader() {
        return elector.isLeader();
    }

    /** Asks the elector to step down; true if it was leading. */
    boolean stepDown() {
        return elector.stepDown();
    }

    /** Blocks the elector's scheduler thread for {@code duration}, as a long GC pause of its loop would. */
    void pauseLoop(Duration duration) {
        scheduler.schedule(() -> Pauses.sleepUninterruptibly(duration), Duration.ZERO);
    }

    /** Closes gracefully: the worker stops, the elector tells it, waits for it and releases the lease. */
    synchronized CompletableFuture<Void> close() {
        if (closing == null) {
            worker.stop();
            closing = elector.closeAsync();
        }
        return closing;
    }

    /**
     * Freezes the elector until {@code thaw} opens: its scheduler thread and its backend calls (before they are sent
     * and before their answers are handed back) block, and the worker stops. No renewal, no release: the lease
     * expires and others take over. When it resumes, everything it believed has long expired.
     */
    void freezeUntil(CountDownLatch thaw) {
        worker.stop();
        backend.freezeUntil(thaw);
        scheduler.schedule(() -> Pauses.awaitUninterruptibly(thaw), Duration.ZERO);
    }

    /** Waits for the worker thread to end, waking it; false if it is still running after {@code limit}. */
    boolean stopWorker(Duration limit) throws InterruptedException {
        worker.stop();
        workerThread.interrupt();
        workerThread.join(Math.max(1, limit.toMillis()));
        return !workerThread.isAlive();
    }

    /**
     * Once the elector is closed, stops its scheduler thread and waits until every backend call it started (stalled
     * ones included) has ended; false if some still runs after {@code limit}. The elector owns neither.
     */
    boolean releaseThreads(Duration limit) throws InterruptedException {
        scheduler.close();
        io.shutdown();
        return io.awaitTermination(limit.toNanos(), TimeUnit.NANOSECONDS);
    }

    private static ThreadFactory daemonThreads(String prefix) {
        AtomicInteger counter = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, prefix + counter.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    EventTrace trace() {
        return trace;
    }
}
