package dev.hoplock.spring.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.GlobalObservationConvention;

/**
 * The convention of {@link HoplockObservations#MEMBERSHIP_CHANGE} observations: a bean of this type replaces
 * {@link DefaultMembershipChangeObservationConvention} (extend it to rename or add key values). The auto-configuration passes such a
 * bean to hoplock's observations; as a {@link GlobalObservationConvention}, Spring Boot also registers it on its
 * {@code ObservationRegistry}.
 */
public interface MembershipChangeObservationConvention
        extends GlobalObservationConvention<MembershipChangeObservationContext> {

    @Override
    default boolean supportsContext(Observation.Context context) {
        return context instanceof MembershipChangeObservationContext;
    }
}
