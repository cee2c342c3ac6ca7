package dev.hoplock.spring.fencing;

import dev.hoplock.core.election.LeaderContext;
import dev.hoplock.core.Lease;
import dev.hoplock.core.fencing.Fence;
import dev.hoplock.core.ownership.OwnershipClaim;
import dev.hoplock.spring.leader.LeaderContextHolder;
import dev.hoplock.spring.leader.OnNonLeader;
import dev.hoplock.spring.lock.WhenLockHeld;
import dev.hoplock.spring.leader.LeaderOnlyAttributeSource;
import dev.hoplock.spring.lock.WithLockAttributeSource;
import dev.hoplock.spring.fencing.FencedInterceptorTest.Writer;
import dev.hoplock.spring.ownership.OwnershipScope;
import org.springframework.aop.framework.ProxyFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The fixtures the {@code @Fenced} advice tests of this package share: a {@link Writer} proxied with the fenced
 * advisor over a given fence and token source, the token sources of {@code @LeaderOnly} and of the starter, a leader
 * context at a given lease, an ownership claim held for the whole test, and a write inside a given context.
 */
final class FencingFixtures {

    private FencingFixtures() {
    }

    /** A {@link Writer} recording into {@code events}, with the {@code @Fenced} advisor over {@code fence}. */
    static Writer fencedWriter(List<String> events, Fence fence, FencingTokenSource tokens) {
        ProxyFactory factory = new ProxyFactory(new Writer(events));
        factory.setProxyTargetClass(true);
        factory.addAdvisor(new FencedAdvisor(() -> fence, tokens));
        return (Writer) factory.getProxy();
    }

    /** The token source of {@code @LeaderOnly} calls. */
    static FencingTokenSource leaderOnlyTokens() {
        return new LeaderOnlyTokenSource(new LeaderOnlyAttributeSource(OnNonLeader.SKIP, false));
    }

    /** The starter's composite token source: {@code @WithLock}, then {@code @LeaderOnly}. */
    static FencingTokenSource startersTokens() {
        return new FirstTokenSource(List.of(
                new WithLockTokenSource(new WithLockAttributeSource(WhenLockHeld.SKIP, null)),
                leaderOnlyTokens()));
    }

    /** Calls {@code writer.write()} inside {@code context}, then restores the caller's context. */
    static void writeIn(Writer writer, LeaderContext context) {
        LeaderContext previous = LeaderContextHolder.enter(context);
        try {
            writer.write();
        } finally {
            LeaderContextHolder.restore(previous);
        }
    }

    /** Calls {@code writer.write()} inside the keyed {@code scope}, restores the caller's context, closes the scope. */
    static void writeIn(Writer writer, OwnershipScope scope) {
        try {
            writeIn(writer, (LeaderContext) scope);
        } finally {
            scope.close();
        }
    }

    /** A leading context whose lease on {@code jobs/invoices} is {@code owner}'s at {@code generation}. */
    static LeaderContext leader(String owner, long generation) {
        Lease lease = new Lease("jobs/invoices", owner, generation, Instant.now().plusSeconds(30));
        return new LeaderContext() {
            @Override
            public Lease lease() {
                return lease;
            }

            @Override
            public boolean isLeading() {
                return true;
            }

            @Override
            public Duration timeLeft() {
                return Duration.ofSeconds(30);
            }
        };
    }

    /** A claim held for the whole test: the part under test is the token, key and holder handed over. */
    record Claim(String key, long token) implements OwnershipClaim {
        @Override
        public boolean isValid() {
            return true;
        }

        @Override
        public Duration timeLeft() {
            return Duration.ofSeconds(30);
        }

        @Override
        public void close() {
        }
    }
}
