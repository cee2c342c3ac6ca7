package dev.hoplock.spring.observation;

import dev.hoplock.spring.ownership.OwnershipChange;
import io.micrometer.observation.Observation;

/**
 * The context of a {@link HoplockObservations#MEMBERSHIP_CHANGE} observation: the change the ownership group adopted
 * here. The change carries keys and member ids; the default convention records counts only, and a custom one should
 * keep to that (a key as a key value is a meter per key, and may be personal data).
 */
public final class MembershipChangeObservationContext extends Observation.Context {

    private final OwnershipChange change;

    /** The context of {@code change}. */
    public MembershipChangeObservationContext(OwnershipChange change) {
        this.change = change;
    }

    /** The change. */
    public OwnershipChange getChange() {
        return change;
    }
}
