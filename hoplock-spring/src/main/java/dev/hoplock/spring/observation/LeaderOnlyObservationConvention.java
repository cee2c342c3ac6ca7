package dev.hoplock.spring.observation;

import io.micrometer.observation.GlobalObservationConvention;
import io.micrometer.observation.Observation;

/**
 * The convention of {@link HoplockObservations#LEADER_ONLY} observations ({@code @LeaderOnly} calls that ran): a bean of this type replaces
 * {@link DefaultLeaderOnlyObservationConvention} (extend it to rename or add key values). The gates create their
 * observations without a custom convention, so Micrometer applies the registry's global conventions: as a
 * {@link GlobalObservationConvention}, a bean of this type is registered on the application's
 * {@code ObservationRegistry} by Spring Boot (Boot 3.5 and 4.x), and the gates use it. Keep low-cardinality keys
 * low: never a lock name, a key or an argument.
 */
public interface LeaderOnlyObservationConvention extends GlobalObservationConvention<GateObservationContext> {

    /** Only the contexts of {@link HoplockObservations#LEADER_ONLY} observations. */
    @Override
    default boolean supportsContext(Observation.Context context) {
        return context instanceof GateObservationContext gate && HoplockObservations.LEADER_ONLY.equals(gate.getKind());
    }
}
