package dev.hoplock.spring.lock;

import dev.hoplock.core.lock.Locks;
import dev.hoplock.spring.internal.gate.GateAdvisor;

import java.util.List;
import java.util.function.Supplier;

/**
 * The Spring AOP advisor that applies {@code @WithLock} to the methods {@link WithLockAttributeSource} finds annotated:
 * a plain advisor like {@code LeaderOnlyAdvisor} ({@link GateAdvisor}), ordered by
 * {@code hoplock.aspect-order} (default 0, so it runs outside {@code @Transactional} and the fence check, which then
 * find the lock's token).
 */
public final class WithLockAdvisor extends GateAdvisor {

    private static final long serialVersionUID = 1L;

    /**
     * @param source    the gates
     * @param locks     the named locks, resolved at the first call
     * @param listeners told about every call, resolved at the first call
     * @param order     the advisor's order
     */
    public WithLockAdvisor(WithLockAttributeSource source, Supplier<Locks> locks,
            Supplier<List<WithLockListener>> listeners, int order) {
        super(source, new WithLockInterceptor(source, locks, listeners), order);
    }
}
