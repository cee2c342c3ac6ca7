package dev.hoplock.spring.aop;

import dev.hoplock.core.Elector;
import dev.hoplock.core.Holder;
import dev.hoplock.core.LeaderScope;
import dev.hoplock.spring.HoplockElections;
import dev.hoplock.spring.LeaderContextHolder;
import dev.hoplock.spring.NotLeaderException;
import dev.hoplock.spring.annotation.OnNonLeader;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.springframework.aop.support.AopUtils;

import java.lang.reflect.Method;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The {@code @LeaderOnly} gate around one call.
 *
 * <p>Guarantees: the method runs only inside a {@link LeaderScope} opened by
 * {@link Elector#enterLeaderScope(boolean)}, which reads local state only (no store request) and refuses once the
 * self-fencing deadline has passed. While it runs, {@link LeaderContextHolder} holds the scope. When the term ends
 * during the call the thread is interrupted once (if asked); after the call the scope is closed, the previous
 * context restored and that interrupt cleared as {@link GateInterrupts} rules (only an interrupt this scope
 * delivered, never one the caller already had, never one an enclosing call needs). A call that does not run is
 * reported to every {@link LeaderOnlyListener}, then skipped (see {@link SkipValues}) or refused with
 * {@link NotLeaderException}.
 */
final class LeaderOnlyInterceptor implements MethodInterceptor {

    private final LeaderOnlyAttributeSource source;
    private final Supplier<HoplockElections> electionsSupplier;
    private final Supplier<List<LeaderOnlyListener>> listenersSupplier;
    private volatile HoplockElections elections;
    private volatile List<LeaderOnlyListener> listeners;

    /**
     * @param source     the gates
     * @param elections  resolved at the first call (so that the advisor does not create the electors early)
     * @param listeners  resolved at the first call
     */
    LeaderOnlyInterceptor(LeaderOnlyAttributeSource source, Supplier<HoplockElections> elections,
            Supplier<List<LeaderOnlyListener>> listeners) {
        this.source = Objects.requireNonNull(source, "source");
        this.electionsSupplier = Objects.requireNonNull(elections, "elections");
        this.listenersSupplier = Objects.requireNonNull(listeners, "listeners");
    }

    @Override
    public Object invoke(MethodInvocation invocation) throws Throwable {
        Method method = invocation.getMethod();
        Class<?> targetClass = invocation.getThis() == null ? null : AopUtils.getTargetClass(invocation.getThis());
        LeaderOnlyAttribute gate = source.find(method, targetClass);
        if (gate == null) {
            return invocation.proceed();
        }
        HoplockElections all = elections();
        String election;
        try {
            election = all.resolve(gate.election());
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(gate.origin() + ": " + e.getMessage(), e);
        }
        Elector elector = all.get(election);
        Optional<LeaderScope> opened = elector.enterLeaderScope(gate.interruptOnLoss());
        if (opened.isEmpty()) {
            return notRun(election, elector, method, gate);
        }
        LeaderScope scope = opened.get();
        GateInterrupts interrupts = GateInterrupts.enter(scope, gate.interruptOnLoss());
        try (LeaderContextHolder.Restorer restore = LeaderContextHolder.push(scope)) {
            return invocation.proceed();
        } finally {
            scope.close();
            interrupts.exit();
        }
    }

    private Object notRun(String election, Elector elector, Method method, LeaderOnlyAttribute gate) {
        for (LeaderOnlyListener listener : listeners()) {
            listener.notRun(election, method);
        }
        if (gate.onNonLeader() == OnNonLeader.THROW) {
            throw new NotLeaderException(election, LeaderOnlyAttributeSource.describe(method)
                    + " runs only on the leader of election '" + election + "', and this instance ("
                    + elector.owner() + ") does not lead it; " + describeHolder(elector.holder()));
        }
        return SkipValues.of(method.getReturnType());
    }

    private static String describeHolder(Optional<Holder> holder) {
        return holder.map(h -> "the holder last seen is '" + h.owner() + "' at generation " + h.generation())
                .orElse("no holder is known");
    }

    private HoplockElections elections() {
        HoplockElections resolved = elections;
        if (resolved == null) {
            resolved = Objects.requireNonNull(electionsSupplier.get(), "no HoplockElections bean");
            elections = resolved;
        }
        return resolved;
    }

    private List<LeaderOnlyListener> listeners() {
        List<LeaderOnlyListener> resolved = listeners;
        if (resolved == null) {
            resolved = List.copyOf(listenersSupplier.get());
            listeners = resolved;
        }
        return resolved;
    }
}
