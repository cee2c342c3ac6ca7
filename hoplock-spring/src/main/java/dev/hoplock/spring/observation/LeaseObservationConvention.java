package dev.hoplock.spring.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.GlobalObservationConvention;

/**
 * The convention of {@link HoplockObservations#LEASE} observations (the terms of elections, named locks and the
 * ownership member's liveness lease): a bean of this type replaces {@link DefaultLeaseObservationConvention} (extend
 * it to rename or add key values). Keep low-cardinality keys low.
 */
public interface LeaseObservationConvention extends GlobalObservationConvention<LeaseObservationContext> {

    @Override
    default boolean supportsContext(Observation.Context context) {
        return context instanceof LeaseObservationContext;
    }
}
