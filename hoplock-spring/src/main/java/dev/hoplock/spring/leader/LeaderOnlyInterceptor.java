package dev.hoplock.spring.leader;

import dev.hoplock.core.election.Elector;
import dev.hoplock.core.Holder;
import dev.hoplock.core.election.LeaderContext;
import dev.hoplock.core.election.LeaderScope;
import dev.hoplock.core.ownership.OwnershipClaim;
import dev.hoplock.spring.internal.gate.CallStyle;
import dev.hoplock.spring.internal.gate.GateAttributeSource;
import dev.hoplock.spring.internal.gate.GateObservations;
import dev.hoplock.spring.observation.HoplockObservations;
import dev.hoplock.spring.internal.gate.SkipValues;
import dev.hoplock.spring.ownership.HoplockOwnership;
import dev.hoplock.spring.ownership.OwnershipScope;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.TargetClassAware;
import org.springframework.aop.support.AopUtils;
import org.springframework.util.function.SingletonSupplier;

import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The {@code @LeaderOnly} gate around one call.
 *
 * <p>Guarantees: the method runs only inside a {@link LeaderScope} opened by
 * {@link Elector#tryEnterLeaderScope(boolean)}, which reads local state only (no store request) and refuses once the
 * self-fencing deadline has passed. While it runs, {@link LeaderContextHolder} holds the scope. When the term ends
 * during the call the thread is interrupted once (if asked); after the call the scope is closed, the previous
 * context restored and that interrupt cleared as {@link GateInterrupts} rules (only an interrupt this scope
 * delivered, never one the caller already had, never one an enclosing call needs). A call that does not run is
 * reported to every {@link LeaderOnlyListener}, then skipped (see {@link SkipValues}) or refused with
 * {@link NotLeaderException}. A per-key gate ({@code @LeaderOnly(key = ...)}) does the same with an ownership claim on
 * the key instead of the election's scope. The beans it needs are looked up at the first call that needs them.
 *
 * <p>Cost: the gate is on every call of a gated method, so its path allocates nothing but the leader's scope (the
 * gate and the election are looked up without key objects, the context and interrupt bookkeeping are per thread);
 * docs/BENCHMARKS.md measures it against a no-op advisor on the same bean.
 *
 * <p>Observations: with an {@link ObservationRegistry} ({@link GateObservations}, decided at the first call), a call
 * that runs is one {@link HoplockObservations#LEADER_ONLY} observation, a child of the caller's current one (Spring's
 * {@code @Scheduled} observation for a scheduled call), current while the method runs; a skipped call is only a
 * {@link HoplockObservations#SKIPPED} event on the caller's current observation. Without one the path above is
 * unchanged: one volatile read and a null check more.
 */
final class LeaderOnlyInterceptor implements MethodInterceptor {

    private final LeaderOnlyAttributeSource source;
    private final SingletonSupplier<HoplockElections> elections;
    private final SingletonSupplier<LeaderOnlyListener[]> listeners;
    /** Looked up again at every keyed call until there is one (then the call fails naming the property). */
    private final SingletonSupplier<HoplockOwnership> ownership;
    private final KeyExpressions keys = new KeyExpressions();
    private final GateObservations observations;
    private final Map<String, Election> resolved = new ConcurrentHashMap<>();
    /** The invoker of each method called, for the first target class it was called on (see {@link #invoker}). */
    private final Map<Method, Invoker> invokers = new ConcurrentHashMap<>();
    /** The invoker of each method called on each target class (Void: no target). */
    private final Map<Class<?>, Map<Method, Invoker>> invokersByClass = new ConcurrentHashMap<>();

    /**
     * @param source     the gates
     * @param elections  resolved at the first call (so that the advisor does not create the electors early)
     * @param listeners  resolved at the first call
     * @param ownership  the ownership group of keyed gates, resolved at the first keyed call (null: none yet)
     */
    LeaderOnlyInterceptor(LeaderOnlyAttributeSource source, Supplier<HoplockElections> elections,
            Supplier<List<LeaderOnlyListener>> listeners, Supplier<@Nullable HoplockOwnership> ownership) {
        this(source, elections, listeners, ownership, GateObservations.none());
    }

    /** As above; {@code observations}: whether and where calls are observed (decided at the first call). */
    LeaderOnlyInterceptor(LeaderOnlyAttributeSource source, Supplier<HoplockElections> elections,
            Supplier<List<LeaderOnlyListener>> listeners, Supplier<@Nullable HoplockOwnership> ownership,
            GateObservations observations) {
        this.observations = Objects.requireNonNull(observations, "observations");
        this.source = Objects.requireNonNull(source, "source");
        Objects.requireNonNull(elections, "elections");
        Objects.requireNonNull(listeners, "listeners");
        this.elections = SingletonSupplier.of(
                () -> Objects.requireNonNull(elections.get(), "no HoplockElections bean"));
        this.listeners = SingletonSupplier.of(() -> listeners.get().toArray(LeaderOnlyListener[]::new));
        this.ownership = SingletonSupplier.of(Objects.requireNonNull(ownership, "ownership"));
    }

    @Override
    public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
        Method method = invocation.getMethod();
        Object target = invocation.getThis();
        Invoker invoker = invokers.get(method);
        if (invoker == null || !invoker.matches(target)) {
            invoker = invoker(method, target == null ? null : AopUtils.getTargetClass(target), target);
        }
        LeaderOnlyAttribute gate = invoker.gate;
        if (gate == null) {
            return invocation.proceed();
        }
        if (invoker.style != CallStyle.DIRECT) {
            return invokeDeferred(invocation, method, gate, invoker.style);
        }
        ObservationRegistry registry = observations.registry();
        if (gate.isKeyed()) {
            return invokeKeyed(invocation, method, gate, registry);
        }
        Election election = invoker.election();
        LeaderScope scope = election.elector.tryEnterLeaderScope(gate.interruptOnLoss());
        if (scope == null) {
            if (registry != null) {
                GateObservations.eventOnCurrent(registry, HoplockObservations.SKIPPED);
            }
            return notRun(election, method, gate, invoker.skipsToNull);
        }
        if (registry != null) {
            return observed(registry, election.name, invocation, method, scope, gate.interruptOnLoss());
        }
        return proceedInScope(invocation, scope, gate.interruptOnLoss());
    }

    /**
     * The invoker of {@code method} on {@code targetClass}, resolved once: the fast map keeps the first target class
     * seen for each method, this map every one (a method inherited by several gated beans).
     */
    private Invoker invoker(Method method, @Nullable Class<?> targetClass, @Nullable Object target) {
        Map<Method, Invoker> ofClass = invokersByClass.get(targetClass == null ? Void.class : targetClass);
        Invoker known = ofClass == null ? null : ofClass.get(method);
        if (known != null) {
            return known;
        }
        Invoker fresh = new Invoker(targetClass, target, source.find(method, targetClass), method);
        known = invokersByClass.computeIfAbsent(targetClass == null ? Void.class : targetClass,
                c -> new ConcurrentHashMap<>()).putIfAbsent(method, fresh);
        Invoker kept = known == null ? fresh : known;
        invokers.putIfAbsent(method, kept);
        return kept;
    }

    /**
     * What the gate needs of one method called on one target class, resolved at its first call so that later calls
     * make one map lookup by method (no key object) and read the rest from final fields: the gate, the call style, the
     * election (resolved at the first call that needs it) and whether a skipped call returns null.
     */
    private final class Invoker {
        final @Nullable Class<?> targetClass;
        /**
         * The class of the target object the invoker was made for, when it alone decides the target class (the
         * target is not {@link TargetClassAware}): then a later call on an object of the same class matches without
         * asking {@link AopUtils#getTargetClass}. Null: match by asking it.
         */
        private final @Nullable Class<?> objectClass;
        final @Nullable LeaderOnlyAttribute gate;
        final CallStyle style;
        /** A skipped call returns null (most types); otherwise {@link SkipValues#of} makes the value per call. */
        final boolean skipsToNull;
        /** Resolved by the first call that needs it; a racy cache of an immutable value (final fields). */
        private @Nullable Election election;

        Invoker(@Nullable Class<?> targetClass, @Nullable Object target, @Nullable LeaderOnlyAttribute gate,
                Method method) {
            this.targetClass = targetClass;
            this.objectClass = target == null || target instanceof TargetClassAware ? null : target.getClass();
            this.gate = gate;
            Class<?> returns = method.getReturnType();
            this.style = gate == null || returns.isPrimitive() ? CallStyle.DIRECT : CallStyle.of(method);
            this.skipsToNull = SkipValues.canSkip(returns) && SkipValues.of(returns) == null;
        }

        /** Whether this invoker is the one of a call on {@code target}. */
        boolean matches(@Nullable Object target) {
            if (target == null) {
                return targetClass == null;
            }
            return target.getClass() == objectClass
                    || targetClass != null && AopUtils.getTargetClass(target) == targetClass;
        }

        Election election() {
            Election known = election;
            if (known == null) {
                known = LeaderOnlyInterceptor.this.election(java.util.Objects.requireNonNull(gate, "gate"));
                election = known;
            }
            return known;
        }
    }

    /** {@link #proceedInScope} inside a {@link HoplockObservations#LEADER_ONLY} observation, current meanwhile. */
    private @Nullable Object observed(ObservationRegistry registry, String election, MethodInvocation invocation,
            Method method, LeaderScope scope, boolean interruptOnLoss) throws Throwable {
        boolean handedOver = false;
        try {
            Observation observation = observations.leaderOnly(registry, election, method).start();
            try (Observation.Scope ignored = observation.openScope()) {
                handedOver = true;
                return proceedInScope(invocation, scope, interruptOnLoss);
            } catch (Throwable e) {
                observation.error(e);
                throw e;
            } finally {
                observation.stop();
            }
        } finally {
            if (!handedOver) {
                // An observation handler threw before the call ran: the scope is closed all the same, or the term
                // would never drain and a step-down or close would keep the lease (review finding).
                scope.close();
            }
        }
    }

    /**
     * Runs the call inside {@code scope} (an election's or a key's): the scope is the current {@link LeaderContext}
     * while the call runs; afterwards the scope is closed, then the previous context restored and the interrupt
     * cleared as {@link GateInterrupts} rules (one thread-local lookup for both).
     */
    private static @Nullable Object proceedInScope(MethodInvocation invocation, LeaderScope scope,
            boolean interruptOnLoss) throws Throwable {
        GateInterrupts calls = GateInterrupts.enter(scope, interruptOnLoss);
        try {
            return invocation.proceed();
        } finally {
            scope.close();
            calls.exit();
        }
    }

    /**
     * The per-key gate: the method runs only inside an {@link OwnershipScope} over a claim that
     * {@link HoplockOwnership#claim} opened (local state only), which interrupts the thread when the key moves.
     */
    private @Nullable Object invokeKeyed(MethodInvocation invocation, Method method, LeaderOnlyAttribute gate,
            @Nullable ObservationRegistry registry) throws Throwable {
        HoplockOwnership owners = ownership(gate);
        String key = keys.evaluate(gate.key(), method, invocation.getArguments(), gate.origin());
        OwnershipClaim claim = owners.claim(key, gate.interruptOnLoss()).orElse(null);
        if (claim == null) {
            if (registry != null) {
                GateObservations.eventOnCurrent(registry, HoplockObservations.SKIPPED);
            }
            for (LeaderOnlyListener listener : listeners.obtain()) {
                listener.notRun("ownership:" + owners.name(), method);
            }
            if (gate.onNonLeader() == OnNonLeader.THROW) {
                throw notOwner(owners, method, key);
            }
            return SkipValues.of(method.getReturnType());
        }
        OwnershipScope scope = new OwnershipScope(owners.name(), owners.self().id(), owners.processOwner(), claim);
        if (registry != null) {
            // The key is never recorded: only the group, as the skipped counter tags it.
            return observed(registry, "ownership:" + owners.name(), invocation, method, scope,
                    gate.interruptOnLoss());
        }
        return proceedInScope(invocation, scope, gate.interruptOnLoss());
    }

    private static NotLeaderException notOwner(HoplockOwnership owners, Method method, String key) {
        return new NotLeaderException("ownership:" + owners.name(), GateAttributeSource.describe(method)
                + " runs only on the owner of its key, and this instance (" + owners.self().id()
                + ") does not act as the owner of key '" + key + "' in ownership group '" + owners.name()
                + "'; its owner in the current view: " + owners.owner(key).map(m -> "'" + m.id() + "'")
                .orElse("none (the members are not known)"));
    }

    /**
     * The gate of a method whose work runs at subscription: {@link DeferredLeaderOnly} (which alone refers to Reactor,
     * so that this class loads without it). A subscription that does not lead is told to the listeners first.
     */
    private Object invokeDeferred(MethodInvocation invocation, Method method, LeaderOnlyAttribute gate,
            CallStyle style) {
        if (gate.isKeyed()) {
            HoplockOwnership owners = ownership(gate);
            String key = keys.evaluate(gate.key(), method, invocation.getArguments(), gate.origin());
            return DeferredLeaderOnly.keyed(invocation, method, style, owners, key, () -> {
                for (LeaderOnlyListener listener : listeners.obtain()) {
                    listener.notRun("ownership:" + owners.name(), method);
                }
                return gate.onNonLeader() == OnNonLeader.THROW ? notOwner(owners, method, key) : null;
            });
        }
        Election election = election(gate);
        return DeferredLeaderOnly.election(invocation, method, style, election.elector, election.name, () -> {
            try {
                notRun(election, method, gate, false);
            } catch (NotLeaderException e) {
                return e;
            }
            return null;
        });
    }

    private HoplockOwnership ownership(LeaderOnlyAttribute gate) {
        HoplockOwnership group = ownership.get();
        if (group == null) {
            throw new IllegalStateException(gate.origin() + " gates on key ownership, but no ownership group is"
                    + " configured: set hoplock.ownership.group");
        }
        return group;
    }

    private @Nullable Object notRun(Election election, Method method, LeaderOnlyAttribute gate,
            boolean skipsToNull) {
        for (LeaderOnlyListener listener : listeners.obtain()) {
            listener.notRun(election.name, method);
        }
        if (gate.onNonLeader() == OnNonLeader.THROW) {
            throw new NotLeaderException(election.name, GateAttributeSource.describe(method)
                    + " runs only on the leader of election '" + election.name + "', and this instance ("
                    + election.elector.owner() + ") does not lead it; " + describeHolder(election.elector.holder()));
        }
        return skipsToNull ? null : SkipValues.of(method.getReturnType());
    }

    /** The election a gate names, resolved once per name as written (the set of elections is fixed at start). */
    private Election election(LeaderOnlyAttribute gate) {
        Election known = resolved.get(gate.election());
        if (known != null) {
            return known;
        }
        HoplockElections all = elections.obtain();
        String name;
        try {
            name = all.resolve(gate.election());
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(gate.origin() + ": " + e.getMessage(), e);
        }
        Election election = new Election(name, all.get(name));
        resolved.put(gate.election(), election);
        return election;
    }

    /** A resolved election: its name and its elector. */
    private record Election(String name, Elector elector) {
    }

    private static String describeHolder(Optional<Holder> holder) {
        return holder.map(h -> "the holder last seen is '" + h.owner() + "' at generation " + h.generation())
                .orElse("no holder is known");
    }
}
