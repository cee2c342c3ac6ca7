package dev.hoplock.spring.leader;

import dev.hoplock.core.election.Elector;
import dev.hoplock.core.election.LeaderScope;
import dev.hoplock.core.election.LeadershipLostException;
import dev.hoplock.core.ownership.OwnershipClaim;
import dev.hoplock.spring.internal.gate.CallStyle;
import dev.hoplock.spring.internal.gate.DeferredGate;
import dev.hoplock.spring.internal.gate.GateAttributeSource;
import dev.hoplock.spring.ownership.HoplockOwnership;
import dev.hoplock.spring.ownership.OwnershipScope;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;

import java.lang.reflect.Method;
import java.util.function.Supplier;

/**
 * The {@code @LeaderOnly} gate of a method whose work runs at subscription (a {@code Mono}, a {@code Flux}, a Kotlin
 * suspend function), over {@link DeferredGate}.
 *
 * <p>Guarantees, per subscription: the leader scope ({@link Elector#tryEnterLeaderScope(Runnable)}) or the key's claim
 * ({@link HoplockOwnership#claim(String, Runnable)}) is opened from local state only (no store request), with a loss
 * callback that cancels the subscription, which then fails with {@link LeadershipLostException}; the scope (for a key,
 * an {@link OwnershipScope}) is the {@link ReactiveLeaderContext} of the method's publisher and is closed when the
 * subscription terminates, so that a release (E7) waits for the work. A subscription that does not lead is reported
 * ({@code notRun}, which tells the listeners) and is then empty, or fails with the {@link NotLeaderException} it
 * returned (THROW).
 */
final class DeferredLeaderOnly {

    private DeferredLeaderOnly() {
    }

    /**
     * @param notRun tells the listeners; returns the error for THROW, or null to skip
     */
    static Object election(MethodInvocation invocation, Method method, CallStyle style, Elector elector, String name,
            Supplier<@Nullable NotLeaderException> notRun) {
        return DeferredGate.gate(invocation, method, style, onLoss -> Mono.defer(() -> {
            LeaderScope scope = elector.tryEnterLeaderScope(onLoss);
            if (scope == null) {
                return refused(notRun);
            }
            return Mono.just(new ScopeEntry(scope, () -> new LeadershipLostException("leadership of election '"
                    + name + "' at generation " + scope.lease().generation() + " ended while "
                    + GateAttributeSource.describe(method) + " ran: its subscription was cancelled")));
        }));
    }

    /**
     * @param notRun tells the listeners; returns the error for THROW, or null to skip
     */
    static Object keyed(MethodInvocation invocation, Method method, CallStyle style, HoplockOwnership owners,
            String key, Supplier<@Nullable NotLeaderException> notRun) {
        return DeferredGate.gate(invocation, method, style, onLoss -> Mono.defer(() -> {
            OwnershipClaim claim = owners.claim(key, onLoss).orElse(null);
            if (claim == null) {
                return refused(notRun);
            }
            OwnershipScope scope = new OwnershipScope(owners.name(), owners.self().id(), owners.processOwner(),
                    claim);
            return Mono.just(new ScopeEntry(scope, () -> new LeadershipLostException("the ownership of key '" + key
                    + "' (token " + claim.token() + ") in group '" + owners.name() + "' ended while "
                    + GateAttributeSource.describe(method) + " ran: its subscription was cancelled")));
        }));
    }

    private static Mono<DeferredGate.Entry> refused(Supplier<@Nullable NotLeaderException> notRun) {
        NotLeaderException error = notRun.get();
        return error == null ? Mono.empty() : Mono.error(error);
    }

    /** A leader scope (an election's or a key's) as the entry of one subscription. */
    private record ScopeEntry(LeaderScope scope, Supplier<RuntimeException> loss) implements DeferredGate.Entry {

        @Override
        public Object contextKey() {
            return ReactiveLeaderContext.KEY;
        }

        @Override
        public Object contextValue() {
            return scope;
        }

        @Override
        public boolean isValid() {
            return scope.isLeading();
        }

        @Override
        public RuntimeException lost() {
            return loss.get();
        }

        @Override
        public Publisher<?> exit(boolean lost) {
            return Mono.fromRunnable(scope::close);
        }
    }
}
