package dev.hoplock.spring.lock;

import dev.hoplock.core.lock.Locks;
import dev.hoplock.core.time.TimeSource;
import dev.hoplock.spring.internal.gate.GateAdvisor;
import dev.hoplock.spring.internal.gate.GateObservations;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

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
        this(source, locks, listeners, () -> null, order);
    }

    /**
     * @param source       the gates
     * @param locks        the named locks, resolved at the first call
     * @param listeners    told about every call, resolved at the first call
     * @param observations the registry that observes the calls (null, or one without handlers: none), resolved at
     *                     the first call; see docs/spring-boot.md, "Traces"
     * @param order        the advisor's order
     */
    public WithLockAdvisor(WithLockAttributeSource source, Supplier<Locks> locks,
            Supplier<List<WithLockListener>> listeners, Supplier<@Nullable ObservationRegistry> observations,
            int order) {
        super(source, new WithLockInterceptor(source, locks, listeners, TimeSource.system(),
                new GateObservations(observations)), order);
    }
}
