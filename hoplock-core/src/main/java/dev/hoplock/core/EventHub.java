package dev.hoplock.core;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.Flow;
import java.util.concurrent.RejectedExecutionException;

/**
 * Fans election events out to subscribers, each with its own queue served on an executor.
 *
 * <p>Guarantees: per subscriber, events arrive in order and one at a time; {@link ElectionEvent.Acquired},
 * {@link ElectionEvent.Lost} and {@link ElectionEvent.Problem} are always queued; {@link ElectionEvent.Renewed} and
 * {@link ElectionEvent.LeaderObserved} are dropped for a subscriber whose queue already holds {@link #SOFT_LIMIT}
 * events. Publishing never blocks and never runs subscriber code on the publishing thread unless the executor does.
 */
final class EventHub implements Flow.Publisher<ElectionEvent> {

    static final int SOFT_LIMIT = 256;

    private static final Logger log = LoggerFactory.getLogger(EventHub.class);

    private final Executor executor;
    private final List<Subscription> subscriptions = new CopyOnWriteArrayList<>();
    private volatile boolean completed;

    EventHub(Executor executor) {
        this.executor = executor;
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
        private final Deque<ElectionEvent> queue = new ArrayDeque<>();
        private long demand;
        private boolean draining;
        private boolean cancelled;
        private boolean completing;
        private boolean started;

        Subscription(Flow.Subscriber<? super ElectionEvent> subscriber) {
            this.subscriber = subscriber;
        }

        void start() {
            dispatch(() -> {
                subscriber.onSubscribe(this);
                synchronized (this) {
                    started = true;
                    scheduleDrain();
                }
            });
        }

        synchronized void offer(ElectionEvent event) {
            if (cancelled || completing) {
                return;
            }
            boolean droppable = event instanceof ElectionEvent.Renewed || event instanceof ElectionEvent.LeaderObserved;
            if (droppable && queue.size() >= SOFT_LIMIT) {
                return;
            }
            queue.add(event);
            scheduleDrain();
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
            }
        }
    }
}
