package dev.hoplock.spring.leader;

import dev.hoplock.core.election.LeaderContext;
import reactor.core.publisher.Mono;
import reactor.util.context.ContextView;

import java.util.Optional;

/**
 * The {@link LeaderContext} of a reactive or coroutine {@code @LeaderOnly} method, read from the Reactor
 * {@code Context}: the counterpart of {@link LeaderContextHolder}, which is bound to a thread and so is empty in such
 * methods.
 *
 * <p>Guarantees: for each subscription to what a {@code @LeaderOnly} method returning {@code Mono}, {@code Flux} (or
 * another type of Spring's {@code ReactiveAdapterRegistry}), or a Kotlin {@code suspend} function, runs, the gate's
 * context is in the Reactor {@code Context} of the method's publisher under {@link #KEY}: for an election the leader
 * scope of the subscription, whose {@code lease().generation()} is the fencing token; for
 * {@code @LeaderOnly(key = ...)} a {@link dev.hoplock.spring.ownership.OwnershipScope}, whose generation is the key's
 * token. It reads local state only. In Kotlin, from a suspend function:
 * {@code coroutineContext[ReactorContext]?.context?.getOrEmpty<LeaderContext>(ReactiveLeaderContext.KEY)}.
 */
public final class ReactiveLeaderContext {

    /** The key of the {@link LeaderContext} in the Reactor {@code Context}: the {@code LeaderContext} class. */
    public static final Class<LeaderContext> KEY = LeaderContext.class;

    private ReactiveLeaderContext() {
    }

    /** The leader context of the subscription this is part of; empty outside a {@code @LeaderOnly} subscription. */
    public static Mono<LeaderContext> current() {
        return Mono.deferContextual(context -> Mono.justOrEmpty(from(context)));
    }

    /** The leader context in {@code context}; empty when it holds none. */
    public static Optional<LeaderContext> from(ContextView context) {
        return context.getOrEmpty(KEY);
    }
}
