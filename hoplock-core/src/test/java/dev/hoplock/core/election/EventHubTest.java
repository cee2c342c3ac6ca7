package dev.hoplock.core.election;

import dev.hoplock.core.Lease;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Flow;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static java.util.Objects.requireNonNull;
import static org.assertj.core.api.Assertions.assertThat;

class EventHubTest {

    private static final Lease LEASE = new Lease("k", "o", 1, Instant.EPOCH);

    /** Runs tasks only when the test says so: a subscriber that has fallen behind. */
    private final List<Runnable> queued = new ArrayList<>();
    private final EventHub hub = new EventHub("k", () -> Instant.EPOCH, queued::add);

    private void runQueued() {
        while (!queued.isEmpty()) {
            queued.remove(0).run();
        }
    }

    @Test
    void renewalsAreDroppedForASlowSubscriberButAcquiredAndLostNeverAre() {
        List<ElectionEvent> seen = new ArrayList<>();
        hub.subscribe(subscriber(seen, Long.MAX_VALUE, new AtomicReference<>()));
        runQueued();
        hub.publish(new ElectionEvent.Acquired("k", Instant.EPOCH, LEASE));
        for (int i = 0; i < EventHub.SOFT_LIMIT * 3; i++) {
            hub.publish(new ElectionEvent.Renewed("k", Instant.EPOCH, LEASE));
        }
        hub.publish(new ElectionEvent.Lost("k", Instant.EPOCH, LEASE, LossCause.DEADLINE_PASSED, "x"));
        runQueued();
        assertThat(seen.get(0)).isInstanceOf(ElectionEvent.Acquired.class);
        assertThat(seen.get(seen.size() - 1)).isInstanceOf(ElectionEvent.Lost.class);
        assertThat(seen.stream().filter(e -> e instanceof ElectionEvent.Renewed).count())
                .isLessThan(EventHub.SOFT_LIMIT * 3L).isGreaterThan(0);
    }

    @Test
    void demandIsHonouredAndCompletionFollowsQueuedEvents() {
        List<ElectionEvent> seen = new ArrayList<>();
        AtomicReference<Flow.Subscription> subscription = new AtomicReference<>();
        hub.subscribe(subscriber(seen, 1, subscription));
        runQueued();
        hub.publish(new ElectionEvent.Acquired("k", Instant.EPOCH, LEASE));
        hub.publish(new ElectionEvent.Lost("k", Instant.EPOCH, LEASE, LossCause.STOPPED, "x"));
        runQueued();
        assertThat(seen).hasSize(1);
        requireNonNull(subscription.get(), "subscribed").request(5);
        hub.complete();
        runQueued();
        assertThat(seen).hasSize(3);
        assertThat(seen.get(2)).isNull();
    }

    @Test
    void aSubscriberAddedJustBeforeTheExecutorShutsDownStillGetsTheQueuedEventsAndTheCompletion() {
        // As ExecutorService.shutdown(): tasks already accepted still run, new ones are refused.
        List<Runnable> accepted = new ArrayList<>();
        AtomicBoolean shutDown = new AtomicBoolean();
        EventHub closing = new EventHub("k", () -> Instant.EPOCH, task -> {
            if (shutDown.get()) {
                throw new RejectedExecutionException("shut down");
            }
            accepted.add(task);
        });
        List<ElectionEvent> seen = new ArrayList<>();
        closing.subscribe(subscriber(seen, Long.MAX_VALUE, new AtomicReference<>()));
        ElectionEvent lost = new ElectionEvent.Lost("k", Instant.EPOCH, LEASE, LossCause.STEPPED_DOWN, "closed");
        closing.publish(lost);
        closing.complete();
        shutDown.set(true);
        while (!accepted.isEmpty()) {
            accepted.remove(0).run();
        }
        assertThat(seen).as("the Lost, then the completion (null)").containsExactly(lost, null);
    }

    private Flow.Subscriber<ElectionEvent> subscriber(List<ElectionEvent> seen, long initialDemand,
                                                      AtomicReference<Flow.Subscription> holder) {
        return new Flow.Subscriber<>() {
            @Override
            public void onSubscribe(Flow.Subscription subscription) {
                holder.set(subscription);
                subscription.request(initialDemand);
            }

            @Override
            public void onNext(ElectionEvent item) {
                seen.add(item);
            }

            @Override
            public void onError(Throwable throwable) {
                throw new AssertionError(throwable);
            }

            @Override
            public void onComplete() {
                seen.add(null);
            }
        };
    }

    @Test
    void aStalledSubscribersQueueIsBoundedAndItIsToldWhatItMissedWithoutBreakingTheAlternation() {
        List<ElectionEvent> seen = new ArrayList<>();
        hub.subscribe(subscriber(seen, Long.MAX_VALUE, new AtomicReference<>()));
        runQueued();
        int published = EventHub.LIMIT * 2;
        for (int i = 0; i < published; i++) {
            hub.publish(new ElectionEvent.Acquired("k", Instant.EPOCH, LEASE));
            hub.publish(new ElectionEvent.Problem("k", Instant.EPOCH, ElectionEvent.ProblemKind.BACKEND_ERROR, "p" + i));
            hub.publish(new ElectionEvent.Renewed("k", Instant.EPOCH, LEASE));
            hub.publish(new ElectionEvent.Lost("k", Instant.EPOCH, LEASE, LossCause.DEADLINE_PASSED, "x"));
        }
        hub.publish(new ElectionEvent.Acquired("k", Instant.EPOCH, LEASE));
        assertThat(hub.queued()).isLessThanOrEqualTo(EventHub.LIMIT);
        runQueued();

        assertThat(seen).hasSizeLessThanOrEqualTo(EventHub.LIMIT);
        List<ElectionEvent.Problem> notices = seen.stream().filter(e -> e instanceof ElectionEvent.Problem p
                && p.kind() == ElectionEvent.ProblemKind.EVENTS_DROPPED).map(ElectionEvent.Problem.class::cast).toList();
        assertThat(notices).singleElement().satisfies(n -> assertThat(n.message()).contains("dropped"));
        List<Class<?>> terms = seen.stream().filter(e -> e instanceof ElectionEvent.Acquired || e instanceof ElectionEvent.Lost)
                .<Class<?>>map(Object::getClass).toList();
        for (int i = 0; i < terms.size(); i++) {
            assertThat(terms.get(i)).as("event %s", i)
                    .isEqualTo(i % 2 == 0 ? ElectionEvent.Acquired.class : ElectionEvent.Lost.class);
        }
        assertThat(seen.get(seen.size() - 1)).as("the latest state arrives").isInstanceOf(ElectionEvent.Acquired.class);
    }
}
