package dev.hoplock.spring.leader;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.core.election.Elector;
import dev.hoplock.core.election.LeaderContext;
import dev.hoplock.core.election.LeadershipLostException;
import dev.hoplock.core.record.LeaseRecordCodec;
import dev.hoplock.core.time.VirtualTime;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.aop.framework.ProxyFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.test.StepVerifier;

import java.lang.reflect.Method;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code @LeaderOnly} on methods returning {@code Mono} and {@code Flux}: the gate spans each subscription, with a real
 * elector over the in-memory store in virtual time (the elector's timers run only when the test advances time). The
 * scope of a subscription is closed when it terminates, which the release of a step-down waits for (E7): a release
 * without advancing time shows that no scope is left open.
 */
class ReactiveLeaderOnlyTest {

    private static final String KEY = "elections/reactive";

    private final VirtualTime time = new VirtualTime(Instant.parse("2026-12-01T00:00:00Z"));
    private final InMemoryBackend store = new InMemoryBackend();
    /** The store as the elector sees it: while {@code failing}, every write fails (no renewal succeeds). */
    private final Failing failing = new Failing(store);
    private final Elector elector = Elector.builder(failing, KEY).owner("me").ttl(Duration.ofSeconds(30))
            .timeSource(time).scheduler(time).ioExecutor(Runnable::run).eventExecutor(Runnable::run).build();
    private final List<String> notRun = new CopyOnWriteArrayList<>();
    private final Reports target = new Reports();
    private final Reports reports = proxy(target);

    /** A store whose writes fail while {@link #fail} is set. */
    static final class Failing extends DelegatingBackend {
        volatile boolean fail;

        Failing(Backend delegate) {
            super(delegate);
        }

        @Override
        public WriteResult write(String key, Handle expected, byte[] content, Duration timeout)
                throws BackendException {
            if (fail) {
                throw new BackendException(BackendException.Kind.TRANSIENT, "planted: the store does not answer");
            }
            return super.write(key, expected, content, timeout);
        }
    }

    /** The gated service: it counts its calls and, for {@link #stream()}, what became of its publisher. */
    public static class Reports {
        final AtomicInteger calls = new AtomicInteger();
        final AtomicInteger cancelled = new AtomicInteger();
        final Sinks.Many<Integer> items = Sinks.many().multicast().onBackpressureBuffer(16, false);

        @LeaderOnly
        public Flux<Integer> stream() {
            calls.incrementAndGet();
            return items.asFlux().doOnCancel(cancelled::incrementAndGet);
        }

        @LeaderOnly
        public Mono<Long> token() {
            calls.incrementAndGet();
            return ReactiveLeaderContext.current().map(context -> context.lease().generation());
        }

        @LeaderOnly
        public Mono<String> once() {
            calls.incrementAndGet();
            return Mono.just("ran");
        }

        @LeaderOnly(onNonLeader = OnNonLeader.THROW)
        public Mono<String> strict() {
            calls.incrementAndGet();
            return Mono.just("ran");
        }

        @LeaderOnly
        public Mono<String> failsOnFirstCall() {
            return calls.incrementAndGet() == 1 ? Mono.error(new IllegalStateException("first")) : Mono.just("ran");
        }

        @LeaderOnly
        public Mono<String> failing() {
            calls.incrementAndGet();
            return Mono.error(new IllegalStateException("planted"));
        }

        @LeaderOnly
        public Flux<String> never() {
            calls.incrementAndGet();
            return Flux.<String>never().doOnCancel(cancelled::incrementAndGet);
        }
    }

    private Reports proxy(Reports service) {
        LeaderOnlyInterceptor interceptor = new LeaderOnlyInterceptor(new LeaderOnlyAttributeSource(OnNonLeader.SKIP,
                false), () -> new HoplockElections(Map.of("default", elector), "default"),
                () -> List.of((String election, Method method) -> notRun.add(election + " " + method.getName())),
                () -> null);
        ProxyFactory factory = new ProxyFactory(service);
        factory.setProxyTargetClass(true);
        factory.addAdvice(interceptor);
        return (Reports) factory.getProxy();
    }

    @AfterEach
    void close() {
        elector.closeAsync();
        time.runDue();
    }

    private long lead() {
        elector.start();
        time.runDue();
        assertThat(elector.isLeader()).isTrue();
        return elector.currentLease().orElseThrow().generation();
    }

    /** The scopes open in the current term (read through the elector's internals: no public API counts them). */
    private int openScopes() {
        try {
            java.lang.reflect.Field loop = Elector.class.getDeclaredField("loop");
            loop.setAccessible(true);
            Object l = loop.get(elector);
            java.lang.reflect.Field leadership = l.getClass().getDeclaredField("leadership");
            leadership.setAccessible(true);
            Object ls = leadership.get(l);
            java.lang.reflect.Method term = ls.getClass().getDeclaredMethod("term");
            term.setAccessible(true);
            Object t = term.invoke(ls);
            return (int) t.getClass().getMethod("openScopes").invoke(t);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The owner of the record now: empty once a release was written. */
    private String recordOwner() throws Exception {
        return LeaseRecordCodec.decode(store.read(KEY, Duration.ofSeconds(1)).orElseThrow().content()).owner();
    }

    @Test
    void theMethodRunsAtSubscriptionOnTheLeaderWithTheLeaseGenerationInTheReactorContext() {
        long generation = lead();

        Mono<Long> token = reports.token();
        assertThat(target.calls).as("calling assembles nothing: the method runs at subscription").hasValue(0);
        StepVerifier.create(token).expectNext(generation).verifyComplete();
        assertThat(target.calls).hasValue(1);
        StepVerifier.create(ReactiveLeaderContext.current()).as("outside the gate: no context").verifyComplete();
    }

    @Test
    void onAFollowerASubscriptionIsEmptyAndTheMethodDoesNotRun() {
        StepVerifier.create(reports.once()).verifyComplete();
        StepVerifier.create(reports.stream()).verifyComplete();

        assertThat(target.calls).hasValue(0);
        assertThat(notRun).containsExactly("default once", "default stream");
    }

    @Test
    void withThrowAFollowersSubscriptionFailsWithNotLeaderException() {
        StepVerifier.create(reports.strict())
                .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(NotLeaderException.class)
                        .hasMessageContaining("runs only on the leader of election 'default'"))
                .verify(Duration.ofSeconds(10));
        assertThat(target.calls).hasValue(0);
    }

    @Test
    void theLossCancelsARunningFluxAndNoElementPassesAfterIt() throws Exception {
        lead();
        List<Integer> seen = new CopyOnWriteArrayList<>();

        StepVerifier.create(reports.stream().doOnNext(seen::add))
                .then(() -> target.items.tryEmitNext(1))
                .expectNext(1)
                .then(() -> {
                    assertThat(elector.stepDown()).isTrue();
                    // Emitted after the term ended, before (or after) the cancellation reaches the publisher.
                    target.items.tryEmitNext(2);
                })
                .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(LeadershipLostException.class)
                        .hasMessageContaining("ended while").hasMessageContaining("Reports.stream() ran"))
                .verify(Duration.ofSeconds(10));

        assertThat(seen).containsExactly(1);
        // Cancelled by the loss signal, or at the element emitted after the loss, whichever came first (or both).
        assertThat(target.cancelled).as("the method's publisher was cancelled").hasPositiveValue();
        time.runDue();
        assertThat(recordOwner()).as("released without waiting: the subscription's scope is closed").isEmpty();
    }

    @Test
    void theSelfFencingDeadlineCancelsAFluxThatNeverEnds() throws Exception {
        lead();
        // No renewal succeeds from now: the term ends at its deadline, told by the fence timer.
        failing.fail = true;
        StepVerifier.create(reports.never())
                .then(() -> time.advance(Duration.ofSeconds(30)))
                .expectError(LeadershipLostException.class)
                .verify(Duration.ofSeconds(10));
        assertThat(elector.isLeader()).isFalse();
        assertThat(target.cancelled).as("the loss alone (no element after it) cancelled the publisher").hasValue(1);
    }

    /**
     * E2 without any thread noticing: the elector's clock passes the self-fencing deadline while its timers do not run
     * (a separate, paused scheduler), so the term is not ended and no loss callback runs; the gate still lets no
     * element through, because it asks the scope before each one.
     */
    @Test
    void noElementPassesOnceTheDeadlineHasPassedEvenBeforeAnyThreadNoticed() {
        VirtualTime timers = new VirtualTime(Instant.parse("2026-12-01T00:00:00Z"));
        Elector paused = Elector.builder(store, "elections/paused").owner("me").ttl(Duration.ofSeconds(30))
                .timeSource(time).scheduler(timers).ioExecutor(Runnable::run).eventExecutor(Runnable::run).build();
        LeaderOnlyInterceptor interceptor = new LeaderOnlyInterceptor(new LeaderOnlyAttributeSource(OnNonLeader.SKIP,
                false), () -> new HoplockElections(Map.of("default", paused), "default"), List::of, () -> null);
        ProxyFactory factory = new ProxyFactory(target);
        factory.setProxyTargetClass(true);
        factory.addAdvice(interceptor);
        Reports onPaused = (Reports) factory.getProxy();
        paused.start();
        timers.runDue();
        assertThat(paused.isLeader()).isTrue();
        List<Integer> seen = new CopyOnWriteArrayList<>();
        try {
            StepVerifier.create(onPaused.stream().doOnNext(seen::add))
                    .then(() -> target.items.tryEmitNext(1))
                    .expectNext(1)
                    .then(() -> {
                        time.advance(Duration.ofSeconds(27)); // ttl - safety margin: past the deadline, no timer ran
                        target.items.tryEmitNext(2);
                    })
                    .expectError(LeadershipLostException.class)
                    .verify(Duration.ofSeconds(10));
        } finally {
            paused.closeAsync();
            timers.advance(Duration.ofSeconds(10));
        }
        assertThat(seen).containsExactly(1);
        assertThat(target.cancelled).hasValue(1);
    }

    @Test
    void everySubscriptionAsksTheGateAgainAndRunsTheMethodOnce() {
        lead();
        Mono<String> once = reports.once();
        StepVerifier.create(once).expectNext("ran").verifyComplete();
        assertThat(elector.stepDown()).isTrue();
        time.runDue();

        StepVerifier.create(once).as("a re-subscription after the loss: skipped").verifyComplete();
        assertThat(target.calls).hasValue(1);
        assertThat(notRun).containsExactly("default once");
    }

    @Test
    void aRetryInvokesTheMethodAgainInsideANewScope() {
        lead();
        StepVerifier.create(reports.failsOnFirstCall().retry(1)).expectNext("ran").verifyComplete();
        assertThat(target.calls).hasValue(2);
    }

    @Test
    void noScopeIsLeftOpenByCompletedFailedOrCancelledSubscriptions() throws Exception {
        lead();
        for (int i = 0; i < 20; i++) {
            StepVerifier.create(reports.once()).expectNext("ran").verifyComplete();
            StepVerifier.create(reports.failing()).verifyError(IllegalStateException.class);
            reports.never().subscribe().dispose();
            // Cancelled before it requested: nothing is opened, the method does not run.
            StepVerifier.create(reports.never()).thenCancel().verify(Duration.ofSeconds(10));
        }
        assertThat(target.calls).as("once, failing and never ran 20 times each").hasValue(60);
        assertThat(openScopes()).isZero();
        assertThat(elector.stepDown()).isTrue();
        time.runDue();
        assertThat(recordOwner()).as("released at once: every scope was closed").isEmpty();
    }

    @Test
    void aScopeStillOpenHoldsTheReleaseBack() throws Exception {
        lead();
        StepVerifier.create(reports.never())
                .expectSubscription()
                .then(() -> {
                    time.runDue();
                    try {
                        assertThat(recordOwner()).isEqualTo("me");
                    } catch (Exception e) {
                        throw new AssertionError(e);
                    }
                })
                .thenCancel()
                .verify(Duration.ofSeconds(10));
        assertThat(elector.stepDown()).isTrue();
        time.runDue();
        assertThat(recordOwner()).isEmpty();
    }

    @Test
    void theLeaderContextStaysUpstreamOfTheGate() {
        lead();
        StepVerifier.create(reports.stream().contextWrite(c -> c))
                .then(() -> target.items.tryEmitNext(7))
                .expectNext(7)
                .expectAccessibleContext()
                .assertThat(context -> assertThat(context.hasKey(LeaderContext.class)).isFalse())
                .then()
                .thenCancel()
                .verify(Duration.ofSeconds(10));
    }
}
