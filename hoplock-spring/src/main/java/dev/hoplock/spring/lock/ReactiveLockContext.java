package dev.hoplock.spring.lock;

import dev.hoplock.core.lock.LockHandle;
import reactor.core.publisher.Mono;
import reactor.util.context.ContextView;

import java.util.Optional;

/**
 * The lock of a reactive or coroutine {@code @WithLock} method, read from the Reactor {@code Context}: the
 * counterpart of {@link LockContextHolder}, which is bound to a thread and so is empty in such methods.
 *
 * <p>Guarantees: for each subscription to what a {@code @WithLock} method returning {@code Mono}, {@code Flux} (or
 * another type of Spring's {@code ReactiveAdapterRegistry}), or a Kotlin {@code suspend} function, runs, the lock the
 * subscription acquired is in the Reactor {@code Context} of the method's publisher under {@link #KEY}; its
 * {@link LockHandle#token()} is the fencing token. It reads local state only. In Kotlin, from a suspend function:
 * {@code coroutineContext[ReactorContext]?.context?.getOrEmpty<LockHandle>(ReactiveLockContext.KEY)}.
 */
public final class ReactiveLockContext {

    /** The key of the {@link LockHandle} in the Reactor {@code Context}: the {@code LockHandle} class. */
    public static final Class<LockHandle> KEY = LockHandle.class;

    private ReactiveLockContext() {
    }

    /** The lock of the subscription this is part of; empty outside a {@code @WithLock} subscription. */
    public static Mono<LockHandle> current() {
        return Mono.deferContextual(context -> Mono.justOrEmpty(from(context)));
    }

    /** The lock in {@code context}; empty when it holds none. */
    public static Optional<LockHandle> from(ContextView context) {
        return context.getOrEmpty(KEY);
    }
}
