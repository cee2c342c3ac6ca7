package dev.hoplock.spring.leader;

import dev.hoplock.core.backend.AsyncBackend;
import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.core.election.LeadershipLostException;
import dev.hoplock.core.ownership.Member;
import dev.hoplock.core.ownership.MembershipView;
import dev.hoplock.core.ownership.OwnershipGroup;
import dev.hoplock.core.ownership.Rendezvous;
import dev.hoplock.core.time.VirtualTime;
import dev.hoplock.spring.ownership.HoplockOwnership;
import dev.hoplock.spring.ownership.OwnershipScope;
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
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code @LeaderOnly(key = ...)} on methods returning {@code Mono} and {@code Flux}: per subscription a claim on the
 * key (local state only), the key's token in the Reactor context, the move of the key cancelling a running
 * subscription. Two real members of an ownership group over the in-memory store, in virtual time.
 */
class ReactiveKeyedLeaderOnlyTest {

    private static final Duration TTL = Duration.ofSeconds(30);

    private final VirtualTime time = new VirtualTime(Instant.parse("2026-12-01T00:00:00Z"));
    private final InMemoryBackend store = new InMemoryBackend();
    private final List<HoplockOwnership> members = new ArrayList<>();
    private final List<String> notRun = new CopyOnWriteArrayList<>();
    private final Billing target = new Billing();

    /** The gated service. */
    public static class Billing {
        final AtomicInteger calls = new AtomicInteger();
        final AtomicInteger cancelled = new AtomicInteger();
        final Sinks.Many<String> lines = Sinks.many().multicast().onBackpressureBuffer(16, false);

        @LeaderOnly(key = "#customer")
        public Mono<Long> token(String customer) {
            calls.incrementAndGet();
            return ReactiveLeaderContext.current().map(context -> ((OwnershipScope) context).token());
        }

        @LeaderOnly(key = "#customer", onNonLeader = OnNonLeader.THROW)
        public Mono<String> strict(String customer) {
            calls.incrementAndGet();
            return Mono.just("ran");
        }

        @LeaderOnly(key = "#customer")
        public Flux<String> invoice(String customer) {
            calls.incrementAndGet();
            return lines.asFlux().doOnCancel(cancelled::incrementAndGet);
        }
    }

    @AfterEach
    void close() {
        members.forEach(HoplockOwnership::closeAsync);
        time.advance(Duration.ofSeconds(10));
    }

    private HoplockOwnership member(String id) {
        HoplockOwnership ownership = new HoplockOwnership(OwnershipGroup.builder(AsyncBackend.on(store, Runnable::run),
                "billing").memberId(id).address(id + ":8080").owner(id + "-process").ttl(TTL).timeSource(time)
                .scheduler(time).eventExecutor(Runnable::run).build());
        members.add(ownership);
        ownership.start();
        return ownership;
    }

    private Billing proxy(HoplockOwnership ownership) {
        LeaderOnlyInterceptor interceptor = new LeaderOnlyInterceptor(new LeaderOnlyAttributeSource(OnNonLeader.SKIP,
                false), () -> new HoplockElections(Map.of(), null),
                () -> List.of((String election, Method method) -> notRun.add(election + " " + method.getName())),
                () -> ownership);
        ProxyFactory factory = new ProxyFactory(target);
        factory.setProxyTargetClass(true);
        factory.addAdvice(interceptor);
        return (Billing) factory.getProxy();
    }

    /** A key that member b owns once a and b are both members (a owns every key while alone). */
    private static String movesToB() {
        MembershipView two = MembershipView.of(9, List.of(Member.of("a"), Member.of("b")));
        for (int i = 0; ; i++) {
            String key = "customer-" + i;
            if (Rendezvous.owner(key, two).orElseThrow().id().equals("b")) {
                return key;
            }
        }
    }

    @Test
    void onTheOwnerTheMethodRunsWithTheKeysTokenInTheContextElsewhereItIsSkippedOrRefused() {
        HoplockOwnership a = member("a");
        time.advance(Duration.ofSeconds(40)); // M3: the registry's creator acts after a whole TTL
        String key = movesToB();
        long token = a.group().token(key).orElseThrow();

        StepVerifier.create(proxy(a).token(key)).expectNext(token).verifyComplete();

        HoplockOwnership b = member("b");
        time.advance(Duration.ofSeconds(20));
        assertThat(b.isOwner(key)).isTrue();
        StepVerifier.create(proxy(a).token(key)).as("a no longer owns the key: skipped").verifyComplete();
        StepVerifier.create(proxy(a).strict(key)).expectError(NotLeaderException.class).verify(Duration.ofSeconds(5));
        assertThat(target.calls).hasValue(1);
        assertThat(notRun).containsExactly("ownership:billing token", "ownership:billing strict");
    }

    @Test
    void theMoveOfTheKeyCancelsARunningFluxAndTheNewOwnerWaitsForIt() {
        HoplockOwnership a = member("a");
        time.advance(Duration.ofSeconds(40));
        String key = movesToB();
        List<String> seen = new CopyOnWriteArrayList<>();
        HoplockOwnership[] b = new HoplockOwnership[1];

        StepVerifier.create(proxy(a).invoice(key).doOnNext(seen::add))
                .then(() -> target.lines.tryEmitNext("line 1"))
                .expectNext("line 1")
                .then(() -> {
                    b[0] = member("b");
                    time.advance(Duration.ofSeconds(12));
                    target.lines.tryEmitNext("line 2");
                })
                .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(LeadershipLostException.class)
                        .hasMessageContaining("the ownership of key '" + key + "'"))
                .verify(Duration.ofSeconds(10));

        assertThat(seen).containsExactly("line 1");
        assertThat(target.cancelled).hasPositiveValue();
        time.advance(Duration.ofSeconds(20));
        assertThat(b[0].isOwner(key)).as("the claim was closed at the cancellation, so b took the key").isTrue();
    }
}
