package dev.hoplock.core.election;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.LinkedList;
import java.util.List;
import java.util.ListIterator;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.Flow;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Supplier;

/**
 * Fans election events out to subscribers, each with its own bounded queue served on an executor.
 *
 * <p>Guarantees: per subscriber, events arrive in order and one at a time, and its queue never holds more than
 * {@link #LIMIT} events. A subscriber that falls behind loses events by these rules, and is always told:
 * <ul>
 *   <li>{@link ElectionEvent.Renewed} and {@link ElectionEvent.LeaderObserved} are dropped once its queue holds
 *       {@link #SOFT_LIMIT} events;</li>
 *   <li>when the queue is full, the oldest queued event other than {@link ElectionEvent.Acquired} and
 *       {@link ElectionEvent.Lost} is dropped; only if there is none, the oldest queued pair of an Acquired and the Lost
 *       that ends it is dropped together, so what the subscriber sees still alternates (Acquired, Lost, Acquired...)
 *       and still ends in the latest state;</li>
 *   <li>every drop is counted into one {@link ElectionEvent.Problem} of kind
 *       {@link ElectionEvent.ProblemKind#EVENTS_DROPPED}, delivered where the first dropped event would have been
 *       (one notice per overflow: further drops before it is delivered only raise its count). A subscriber that sees
 *       it knows it missed events and should read the elector's state ({@code Elector#status()}) again.</li>
 * </ul>
 * Publishing never blocks and never runs subscriber code on the publishing thread unless the executor does.
 */
final class EventHub implements Flow.Publisher<ElectionEvent> {

    static final int SOFT_LIMIT = 256;
    static final int LIMIT = 1024;

    private static final Logger log = LoggerFactory.getLogger(EventHub.class);
    /** Marks where the notice of dropped events goes in a queue; replaced by the notice when delivered. */
    private static final ElectionEvent DROPPED = new ElectionEvent.Problem("", Instant.EPOCH,
            ElectionEvent.ProblemKind.EVENTS_DROPPED, "");

    private final String key;
    private final Supplier<Instant> clock;
    private final Executor executor;
    private final List<Subscription> subscriptions = new CopyOnWriteArrayList<>();
    private volatile boolean completed;

    EventHub(String key, Supplier<Instant> clock, Executor executor) {
        this.key = key;
        this.clock = clock;
        this.executor = executor;
    }

    /** The longest queue of any subscriber (for tests and diagnostics). */
    int queued() {
        int longest = 0;
        for (Subscription subscription : subscriptions) {
            longest = Math.max(longest, subscription.size());
        }
        return longest;
    }

    void publish(ElectionEvent event) {
        for (Subscription subscription : subscriptions) {
            subscription.offer(event);
        }
    }

    /** Signals completion to every subscriber after their queued events. */
    void complete() {
        completed = true;
        for (Subscription subscription : subscriptions) {
            subscription.complete();
        }
    }

    @Override
    public void subscribe(Flow.Subscriber<? super ElectionEvent> subscriber) {
        Subscription subscription = new Subscription(subscriber);
        subscriptions.add(subscription);
        subscription.start();
        if (completed) {
            subscription.complete();
        }
    }

    private final class Subscription implements Flow.Subscription {
        private final Flow.Subscriber<? super ElectionEvent> subscriber;
        private final LinkedList<ElectionEvent> queue = new LinkedList<>();
        /** Events dropped and not yet announced; the notice is the {@link #DROPPED} marker in the queue. */
        private long dropped;
        private long demand;
        private boolean draining;
        private boolean cancelled;
        private boolean completing;
        private boolean started;

        Subscription(Flow.Subscriber<? super ElectionEvent> subscriber) {
            this.subscriber = subscriber;
        }

        /**
         * Subscribes on the executor and delivers what is already queued in the same task, never in a second one: the
         * executor may have been shut down meanwhile (an elector closed just after the subscription was made), and a
         * shut-down executor still runs the tasks it accepted but refuses new ones, so a second task would lose every
         * queued event and the completion.
         */
        void start() {
            dispatch(() -> {
                subscriber.onSubscribe(this);
                synchronized (this) {
                    started = true;
                    if (draining || cancelled) {
                        return;
                    }
                    draining = true;
                }
                drain();
            });
        }

        synchronized void offer(ElectionEvent event) {
            if (cancelled || completing) {
                return;
            }
            boolean droppable = event instanceof ElectionEvent.Renewed || event instanceof ElectionEvent.LeaderObserved;
            if (droppable && queue.size() >= SOFT_LIMIT) {
                noteDropped(queue.size(), 1);
                scheduleDrain();
                return;
            }
            while (queue.size() >= LIMIT) {
                makeRoom();
            }
            queue.add(event);
            scheduleDrain();
        }

        synchronized int size() {
            return queue.size();
        }

        /** Drops the oldest non-essential event, else the oldest Acquired with the Lost that ends it (see the class). */
        private void makeRoom() {
            ListIterator<ElectionEvent> it = queue.listIterator();
            while (it.hasNext()) {
                int index = it.nextIndex();
                ElectionEvent next = it.next();
                if (next != DROPPED && !essential(next)) {
                    it.remove();
                    noteDropped(index, 1);
                    return;
                }
            }
            int acquired = -1;
            for (int i = 0; i < queue.size(); i++) {
                ElectionEvent next = queue.get(i);
                if (next instanceof ElectionEvent.Acquired) {
                    acquired = i;
                } else if (next instanceof ElectionEvent.Lost && acquired >= 0) {
                    queue.remove(i);
                    queue.remove(acquired);
                    noteDropped(acquired, 2);
                    return;
                }
            }
            // Cannot happen with alternating events; never grow past the bound whatever is published.
            int index = queue.getFirst() == DROPPED ? 1 : 0;
            queue.remove(index);
            noteDropped(index, 1);
        }

        private static boolean essential(ElectionEvent event) {
            return event instanceof ElectionEvent.Acquired || event instanceof ElectionEvent.Lost;
        }

        /** Counts drops into the pending notice, queuing it at {@code index} if none is pending. */
        private void noteDropped(int index, int count) {
            if (dropped == 0 && !queue.contains(DROPPED)) {
                queue.add(Math.min(index, queue.size()), DROPPED);
            }
            dropped += count;
        }

        synchronized void complete() {
            completing = true;
            scheduleDrain();
        }

        @Override
        public void request(long n) {
            if (n <= 0) {
                cancel();
                dispatch(() -> subscriber.onError(new IllegalArgumentException("request must be positive (§3.9)")));
                return;
            }
            synchronized (this) {
                demand = demand + n < 0 ? Long.MAX_VALUE : demand + n;
                scheduleDrain();
            }
        }

        @Override
        public void cancel() {
            synchronized (this) {
                cancelled = true;
                queue.clear();
            }
            subscriptions.remove(this);
        }

        private void scheduleDrain() {
            if (draining || !started || cancelled) {
                return;
            }
            if ((queue.isEmpty() || demand == 0) && !(completing && queue.isEmpty())) {
                return;
            }
            draining = true;
            dispatch(this::drain);
        }

        private void drain() {
            while (true) {
                ElectionEvent next;
                boolean finish = false;
                synchronized (this) {
                    if (cancelled) {
                        draining = false;
                        return;
                    }
                    if (!queue.isEmpty() && demand > 0) {
                        next = queue.poll();
                        if (next == DROPPED) {
                            next = notice(dropped);
                            dropped = 0;
                        }
                        if (demand != Long.MAX_VALUE) {
                            demand--;
                        }
                    } else if (queue.isEmpty() && completing) {
                        next = null;
                        finish = true;
                        cancelled = true;
                    } else {
                        draining = false;
                        return;
                    }
                }
                if (finish) {
                    subscriptions.remove(this);
                    safely(subscriber::onComplete);
                    return;
                }
                ElectionEvent event = next;
                safely(() -> subscriber.onNext(event));
            }
        }

        private ElectionEvent notice(long count) {
            return new ElectionEvent.Problem(key, clock.get(), ElectionEvent.ProblemKind.EVENTS_DROPPED, count
                    + " event(s) of '" + key + "' were dropped for this subscriber because it fell " + LIMIT + " events"
                    + " behind (Renewed and LeaderObserved first; Acquired and Lost only in pairs, so that they still"
                    + " alternate). Read the elector's status for the current state; make the subscriber faster");
        }

        private void safely(Runnable call) {
            try {
                call.run();
            } catch (RuntimeException e) {
                log.warn("hoplock event subscriber {} threw; the event is skipped for it", subscriber, e);
            }
        }

        private void dispatch(Runnable task) {
            try {
                executor.execute(task);
            } catch (RejectedExecutionException e) {
                log.debug("hoplock event executor is shut down; event delivery stops");
            } catch (RuntimeException e) {
                // Never let the event executor's failure reach the elector's loop.
                log.warn("hoplock event executor failed to run a delivery of '{}'", key, e);
            }
        }
    }

    /**
     * Calls {@code listener} for every event, on the event executor; returns a handle that stops the calls. A failed
     * stream is logged (under the elector's logger), never thrown at the listener.
     */
    AutoCloseable addListener(java.util.function.Consumer<? super ElectionEvent> listener) {
        java.util.concurrent.CompletableFuture<Flow.Subscription> subscription =
                new java.util.concurrent.CompletableFuture<>();
        subscribe(new Flow.Subscriber<ElectionEvent>() {
            @Override
            public void onSubscribe(Flow.Subscription s) {
                subscription.complete(s);
                s.request(Long.MAX_VALUE);
            }

            @Override
            public void onNext(ElectionEvent item) {
                listener.accept(item);
            }

            @Override
            public void onError(Throwable throwable) {
                LoggerFactory.getLogger(Elector.class).warn("hoplock: event stream of '{}' failed", key, throwable);
            }

            @Override
            public void onComplete() {
            }
        });
        return () -> subscription.thenAccept(Flow.Subscription::cancel);
    }
}
