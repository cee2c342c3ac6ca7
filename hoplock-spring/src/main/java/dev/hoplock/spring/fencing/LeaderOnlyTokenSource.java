package dev.hoplock.spring.fencing;

import dev.hoplock.core.Lease;
import dev.hoplock.spring.leader.LeaderContextHolder;
import dev.hoplock.spring.leader.LeaderOnlyAdvisor;
import dev.hoplock.spring.leader.LeaderOnlyAttributeSource;
import dev.hoplock.spring.ownership.OwnershipScope;

import java.util.OptionalLong;

/**
 * Tokens from {@code @LeaderOnly}: the {@link Lease#generation() generation} of the lease the innermost
 * {@code @LeaderOnly} call on this thread runs under ({@link LeaderContextHolder}). The generation rises at every
 * change of leader and stays the same for a whole term, so two calls of one term pass the fence, and any call of an
 * older term is refused once a newer leader has passed it. For {@code @LeaderOnly(key = ...)}, the token is the key's
 * fencing token and the fenced resource is the declared one with {@code "/" + key} appended. The holder
 * ({@link #currentHolder()}) is the process holding that lease.
 */
public final class LeaderOnlyTokenSource extends GateTokenSource {

    public LeaderOnlyTokenSource(LeaderOnlyAttributeSource gates) {
        super(gates, LeaderOnlyAdvisor.class, "@LeaderOnly (the generation of the lease the call runs under)");
    }

    @Override
    public OptionalLong currentToken() {
        return LeaderContextHolder.currentLease().map(lease -> OptionalLong.of(lease.generation()))
                .orElse(OptionalLong.empty());
    }

    /** Per-key gates have one token sequence per key: the key is appended to the declared resource. */
    @Override
    public String resource(String declared) {
        return LeaderContextHolder.current().filter(OwnershipScope.class::isInstance)
                .map(scope -> declared + "/" + ((OwnershipScope) scope).key()).orElse(declared);
    }

    /**
     * The holder of the current call's lease: for an election, the lease's {@link Lease#owner() owner} (the elector's
     * owner id); for a per-key gate, {@link OwnershipScope#holder()} (the ownership group's process owner, not the
     * member id, which a new process may reuse). Empty outside a {@code @LeaderOnly} call.
     */
    @Override
    public String currentHolder() {
        return LeaderContextHolder.current()
                .map(scope -> scope instanceof OwnershipScope keyed ? keyed.holder() : scope.lease().owner())
                .orElse("");
    }
}
