package dev.hoplock.spring.lock;

import dev.hoplock.core.lock.Locks;
import dev.hoplock.spring.internal.gate.GateAdvisor;
import dev.hoplock.spring.internal.gate.GateObservations;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import java.util.List;
import java.util.Optional;
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
        this(source, locks, listeners, Optional::empty, order);
    }

    /**
     * @param source    the gates
     * @param locks     the named locks, resolved at the first call
     * @param listeners told about every call, resolved at the first call
     * @param notReady  asked at every call, before any store request: while it answers a reason (the application
     *                  does not take part now, for example not ready yet), the call is not run and is reported as
     *                  {@link WithLockListener.Refusal#NOT_READY}, then skipped or refused as {@code whenHeld} says
     * @param order     the advisor's order
     */
    public WithLockAdvisor(WithLockAttributeSource source, Supplier<Locks> locks,
            Supplier<List<WithLockListener>> listeners, Supplier<Optional<String>> notReady, int order) {
        this(source, locks, listeners, notReady, () -> null, order);
    }

    /**
     * @param source       the gates
     * @param locks        the named locks, resolved at the first call
     * @param listeners    told about every call, resolved at the first call
     * @param notReady     as above
     * @param observations the registry that observes the calls (null, or one without handlers: none), resolved at
     *                     the first call; see docs/spring-boot.md, "Traces"
     * @param order        the advisor's order
     */
    public WithLockAdvisor(WithLockAttributeSource source, Supplier<Locks> locks,
            Supplier<List<WithLockListener>> listeners, Supplier<Optional<String>> notReady,
            Supplier<@Nullable ObservationRegistry> observations, int order) {
        super(source, new WithLockInterceptor(source, locks, listeners, notReady, null,
                new GateObservations(observations)), order);
    }
}
