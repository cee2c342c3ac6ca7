package dev.hoplock.spring.observation;

import io.micrometer.observation.GlobalObservationConvention;
import io.micrometer.observation.Observation;

/**
 * The convention of {@link HoplockObservations#WITH_LOCK_HOLD} observations (the hold of {@code @WithLock} calls (from the acquisition to the end of the call)): a bean of this type replaces
 * {@link DefaultWithLockHoldObservationConvention} (extend it to rename or add key values). The gates create their
 * observations without a custom convention, so Micrometer applies the registry's global conventions: as a
 * {@link GlobalObservationConvention}, a bean of this type is registered on the application's
 * {@code ObservationRegistry} by Spring Boot (Boot 3.5 and 4.x), and the gates use it. Keep low-cardinality keys
 * low: never a lock name, a key or an argument.
 */
public interface WithLockHoldObservationConvention extends GlobalObservationConvention<GateObservationContext> {

    /** Only the contexts of {@link HoplockObservations#WITH_LOCK_HOLD} observations. */
    @Override
    default boolean supportsContext(Observation.Context context) {
        return context instanceof GateObservationContext gate && HoplockObservations.WITH_LOCK_HOLD.equals(gate.getKind());
    }
}
