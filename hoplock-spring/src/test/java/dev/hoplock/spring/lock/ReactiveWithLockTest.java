package dev.hoplock.spring.lock;

import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.core.lock.AcquireResult;
import dev.hoplock.core.lock.LockHandle;
import dev.hoplock.core.lock.LockLostException;
import dev.hoplock.core.lock.NamedLocks;
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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code @WithLock} on methods returning {@code Mono} and {@code Flux}: per subscription a non-blocking acquisition,
 * the lock in the Reactor context, the release when the subscription terminates, {@code lockAtLeastFor} honoured, the
 * loss cancelling the work. Real named locks over the in-memory store, in virtual time.
 */
class ReactiveWithLockTest {

    private final VirtualTime time = new VirtualTime(Instant.parse("2026-12-01T00:00:00Z"));
    private final InMemoryBackend store = new InMemoryBackend();
    private final List<NamedLocks> opened = new ArrayList<>();
    private final List<String> told = new CopyOnWriteArrayList<>();
    private final Export target = new Export();

    /** The gated job. */
    public static class Export {
        final AtomicInteger calls = new AtomicInteger();
        final AtomicInteger cancelled = new AtomicInteger();
        final Sinks.Many<Integer> rows = Sinks.many().multicast().onBackpressureBuffer(16, false);

        @WithLock(name = "export", lockAtMostFor = "10m")
        public Mono<Long> token() {
            calls.incrementAndGet();
            return ReactiveLockContext.current().map(LockHandle::token);
        }

        @WithLock(name = "export", lockAtMostFor = "10m", whenHeld = WhenLockHeld.THROW)
        public Mono<String> strict() {
            calls.incrementAndGet();
            return Mono.just("ran");
        }

        @WithLock(name = "minimum", lockAtMostFor = "10m", lockAtLeastFor = "30s")
        public Mono<String> hourly() {
            calls.incrementAndGet();
            return Mono.just("ran");
        }

        @WithLock(name = "stream", lockAtMostFor = "1m")
        public Flux<Integer> stream() {
            calls.incrementAndGet();
            return rows.asFlux().doOnCancel(cancelled::incrementAndGet);
        }
    }

    private NamedLocks locks(String owner) {
        NamedLocks locks = NamedLocks.builder(store).owner(owner).timeSource(time).scheduler(time)
                .ioExecutor(Runnable::run).eventExecutor(Runnable::run).build();
        opened.add(locks);
        return locks;
    }

    private Export proxy(NamedLocks locks) {
        WithLockListener listener = new WithLockListener() {
            @Override
            public void refused(String lock, Method method, Refusal why) {
                told.add("refused " + lock + " " + why);
            }

            @Override
            public void ended(String lock, Method method, Duration heldFor, boolean lost) {
                told.add("ended " + lock + (lost ? " lost" : ""));
            }
        };
        WithLockInterceptor interceptor = new WithLockInterceptor(new WithLockAttributeSource(WhenLockHeld.SKIP, null),
                () -> locks, () -> List.of(listener), time);
        ProxyFactory factory = new ProxyFactory(target);
        factory.setProxyTargetClass(true);
        factory.addAdvice(interceptor);
        return (Export) factory.getProxy();
    }

    @AfterEach
    void closeAll() {
        opened.forEach(NamedLocks::close);
    }

    @Test
    void aSubscriptionRunsHoldingTheLockWithItsTokenInTheContextAndReleasesItAtTheEnd() {
        Export export = proxy(locks("a"));
        NamedLocks other = locks("b");

        Mono<Long> token = export.token();
        assertThat(target.calls).as("nothing runs before the subscription").hasValue(0);
        StepVerifier.create(token).expectNext(1L).verifyComplete();

        assertThat(told).containsExactly("ended export");
        assertThat(other.tryAcquire("export", Duration.ofSeconds(30))).as("released when the Mono completed")
                .isInstanceOf(AcquireResult.Acquired.class);
    }

    @Test
    void aLockHeldElsewhereMakesTheSubscriptionEmptyOrAnErrorWithThrow() {
        Export export = proxy(locks("a"));
        assertThat(locks("b").tryAcquire("export", Duration.ofMinutes(5))).isInstanceOf(AcquireResult.Acquired.class);

        StepVerifier.create(export.token()).verifyComplete();
        StepVerifier.create(export.strict())
                .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(LockNotTakenException.class)
                        .hasMessageContaining("it is held by 'b'"))
                .verify(Duration.ofSeconds(10));
        assertThat(target.calls).hasValue(0);
        assertThat(told).containsExactly("refused export HELD_ELSEWHERE", "refused export HELD_ELSEWHERE");
    }

    @Test
    void lockAtLeastForKeepsTheLockAfterTheSubscriptionEndedUntilItsEnd() {
        Export export = proxy(locks("a"));
        StepVerifier.create(export.hourly()).expectNext("ran").verifyComplete();

        time.advance(Duration.ofSeconds(30).minusMillis(1));
        StepVerifier.create(export.hourly()).as("within lockAtLeastFor: skipped").verifyComplete();
        time.advance(Duration.ofMillis(1));
        StepVerifier.create(export.hourly()).expectNext("ran").verifyComplete();
        assertThat(target.calls).hasValue(2);
    }

    @Test
    void theLossOfTheLockCancelsARunningFlux() {
        Export export = proxy(locks("a"));
        List<Integer> seen = new CopyOnWriteArrayList<>();

        StepVerifier.create(export.stream().doOnNext(seen::add))
                .then(() -> target.rows.tryEmitNext(1))
                .expectNext(1)
                .then(() -> {
                    // lockAtMostFor passes: the lock's deadline ends it (no keep-alive for @WithLock).
                    time.advance(Duration.ofMinutes(1));
                    target.rows.tryEmitNext(2);
                })
                .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(LockLostException.class)
                        .hasMessageContaining("ended while").hasMessageContaining("Export.stream() ran"))
                .verify(Duration.ofSeconds(10));

        assertThat(seen).containsExactly(1);
        // Cancelled by the loss signal, or at the element emitted after the loss, whichever came first (or both).
        assertThat(target.cancelled).hasPositiveValue();
        assertThat(told).containsExactly("ended stream lost");
    }

    @Test
    void aCancelledSubscriptionReleasesTheLockAndEverySubscriptionTakesItAnew() {
        Export export = proxy(locks("a"));
        Flux<Integer> stream = export.stream();
        StepVerifier.create(stream).then(() -> target.rows.tryEmitNext(1)).expectNext(1).thenCancel()
                .verify(Duration.ofSeconds(10));
        StepVerifier.create(stream).then(() -> target.rows.tryEmitNext(2)).expectNext(2).thenCancel()
                .verify(Duration.ofSeconds(10));

        assertThat(target.calls).hasValue(2);
        assertThat(told).containsExactly("ended stream", "ended stream");
        assertThat(locks("b").tryAcquire("stream", Duration.ofSeconds(30))).isInstanceOf(AcquireResult.Acquired.class);
    }
}
