package dev.hoplock.spring.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.GlobalObservationConvention;

/**
 * The convention of {@link HoplockObservations#STORE_REQUEST} observations: a bean of this type replaces
 * {@link DefaultStoreRequestObservationConvention} (extend it to rename or add key values). The auto-configuration passes such a
 * bean to hoplock's observations; as a {@link GlobalObservationConvention}, Spring Boot also registers it on its
 * {@code ObservationRegistry}. Keep low-cardinality keys
 * low: a lease key or a store address as a key value makes a meter per key.
 */
public interface StoreRequestObservationConvention extends GlobalObservationConvention<StoreRequestObservationContext> {

    @Override
    default boolean supportsContext(Observation.Context context) {
        return context instanceof StoreRequestObservationContext;
    }
}
