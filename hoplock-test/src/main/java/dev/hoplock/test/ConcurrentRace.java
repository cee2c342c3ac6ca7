package dev.hoplock.test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs one call per writer, each on its own thread, released together: every round waits until all writers' threads
 * are parked on a start latch, then opens it. Results come back in writer order; a call that throws or does not
 * finish in time fails the round with an {@link AssertionError} naming the writer.
 */
final class ConcurrentRace implements AutoCloseable {

    /** One writer's call in a round; returns the backend's answer. */
    @FunctionalInterface
    interface Call {
        Object run(int writer) throws Exception;
    }

    private final int writers;
    private final Duration timeout;
    private final ExecutorService threads;

    ConcurrentRace(int writers, Duration timeout) {
        if (writers < 2) {
            throw new IllegalArgumentException("a race needs at least 2 writers, got " + writers);
        }
        this.writers = writers;
        this.timeout = timeout;
        AtomicInteger count = new AtomicInteger();
        this.threads = Executors.newFixedThreadPool(writers, runnable -> {
            Thread thread = new Thread(runnable, "contract-race-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
    }

    List<Object> run(Call call) throws InterruptedException {
        CountDownLatch ready = new CountDownLatch(writers);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Object>> futures = new ArrayList<>();
        for (int i = 0; i < writers; i++) {
            int writer = i;
            futures.add(threads.submit(() -> {
                ready.countDown();
                go.await();
                return call.run(writer);
            }));
        }
        if (!ready.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            go.countDown();
            throw new AssertionError("the race's " + writers + " threads did not all start within " + timeout);
        }
        go.countDown();
        long deadline = System.nanoTime() + timeout.toNanos() * 2;
        List<Object> results = new ArrayList<>();
        for (int i = 0; i < writers; i++) {
            try {
                results.add(futures.get(i).get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS));
            } catch (ExecutionException e) {
                throw new AssertionError("writer " + i + " threw instead of answering: " + e.getCause(), e.getCause());
            } catch (TimeoutException e) {
                throw new AssertionError("writer " + i + " did not answer within " + timeout.multipliedBy(2), e);
            }
        }
        return results;
    }

    @Override
    public void close() throws InterruptedException {
        threads.shutdownNow();
        threads.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }
}
