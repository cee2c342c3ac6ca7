package dev.hoplock.test;

import dev.hoplock.core.election.ElectionEvent;
import org.jspecify.annotations.Nullable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Subscribes to one elector's events and keeps its {@link ElectionEvent.Acquired} and {@link ElectionEvent.Lost}
 * events (the ones the elector never drops) in delivery order, counting acquisitions into a shared counter.
 *
 * <p>Thread-safe: events arrive on the elector's event thread, snapshots are taken on the run's thread.
 */
final class EventTrace implements Flow.Subscriber<ElectionEvent> {

    private final String elector;
    private final AtomicInteger acquisitions;
    private final List<ElectionEvent> events = new ArrayList<>();
    private final CountDownLatch completed = new CountDownLatch(1);
    private volatile @Nullable Throwable error;

    EventTrace(String elector, AtomicInteger acquisitions) {
        this.elector = elector;
        this.acquisitions = acquisitions;
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        subscription.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(ElectionEvent event) {
        if (event instanceof ElectionEvent.Acquired || event instanceof ElectionEvent.Lost) {
            synchronized (events) {
                events.add(event);
            }
        }
        if (event instanceof ElectionEvent.Acquired) {
            acquisitions.incrementAndGet();
        }
    }

    @Override
    public void onError(Throwable throwable) {
        error = throwable;
        completed.countDown();
    }

    @Override
    public void onComplete() {
        completed.countDown();
    }

    /** Waits for the end of the stream (the elector closed); false if it has not ended after {@code limit}. */
    boolean awaitComplete(Duration limit) throws InterruptedException {
        return completed.await(limit.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** The stream's error, if it ended with one. */
    @Nullable Throwable error() {
        return error;
    }

    FuzzJournal.Trace snapshot() {
        synchronized (events) {
            return new FuzzJournal.Trace(elector, List.copyOf(events), completed.getCount() == 0 && error == null);
        }
    }
}
