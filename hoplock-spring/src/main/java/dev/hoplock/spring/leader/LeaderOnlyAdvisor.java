package dev.hoplock.spring.leader;

import dev.hoplock.spring.internal.gate.GateAdvisor;
import dev.hoplock.spring.internal.gate.GateObservations;
import dev.hoplock.spring.ownership.HoplockOwnership;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import java.util.List;
import java.util.function.Supplier;

/**
 * The Spring AOP advisor that applies the {@code @LeaderOnly} gate: a plain {@link org.springframework.aop.Advisor}
 * (like the one behind {@code @Transactional}: {@link GateAdvisor}), so it works with any auto-proxy creator and
 * needs no AspectJ weaver. It matches the methods that {@link LeaderOnlyAttributeSource} declares leader-only.
 * Its order ({@code hoplock.aspect-order}, default 0) places it among the other advisors of a bean: lower runs first
 * (outside). With the default it runs outside {@code @Transactional}, whose advisor has the lowest precedence, so
 * leadership is checked before a transaction opens.
 */
public final class LeaderOnlyAdvisor extends GateAdvisor {

    private static final long serialVersionUID = 1L;

    /**
     * @param source    the gates
     * @param elections the electors, resolved at the first call
     * @param listeners told about calls that did not run, resolved at the first call
     * @param order     the advisor's order
     */
    public LeaderOnlyAdvisor(LeaderOnlyAttributeSource source, Supplier<HoplockElections> elections,
            Supplier<List<LeaderOnlyListener>> listeners, int order) {
        this(source, elections, listeners, () -> null, order);
    }

    /**
     * @param source    the gates
     * @param elections the electors, resolved at the first call
     * @param listeners told about calls that did not run, resolved at the first call
     * @param ownership the ownership group of {@code @LeaderOnly(key = ...)} gates (null: none), resolved at the first
     *                  keyed call
     * @param order     the advisor's order
     */
    public LeaderOnlyAdvisor(LeaderOnlyAttributeSource source, Supplier<HoplockElections> elections,
            Supplier<List<LeaderOnlyListener>> listeners, Supplier<@Nullable HoplockOwnership> ownership, int order) {
        this(source, elections, listeners, ownership, () -> null, order);
    }

    /**
     * @param source       the gates
     * @param elections    the electors, resolved at the first call
     * @param listeners    told about calls that did not run, resolved at the first call
     * @param ownership    the ownership group of {@code @LeaderOnly(key = ...)} gates (null: none), resolved at the
     *                     first keyed call
     * @param observations the registry that observes the calls that run (null, or one without handlers: none),
     *                     resolved at the first call; see docs/spring-boot.md, "Traces"
     * @param order        the advisor's order
     */
    public LeaderOnlyAdvisor(LeaderOnlyAttributeSource source, Supplier<HoplockElections> elections,
            Supplier<List<LeaderOnlyListener>> listeners, Supplier<@Nullable HoplockOwnership> ownership,
            Supplier<@Nullable ObservationRegistry> observations, int order) {
        super(source, new LeaderOnlyInterceptor(source, elections, listeners, ownership,
                new GateObservations(observations)), order);
    }
}
