package dev.hoplock.spring.observation;

import dev.hoplock.spring.ownership.OwnershipChange;
import io.micrometer.common.KeyValues;
import org.jspecify.annotations.Nullable;

import static dev.hoplock.spring.observation.HoplockObservations.EPOCH;
import static dev.hoplock.spring.observation.HoplockObservations.GROUP;
import static dev.hoplock.spring.observation.HoplockObservations.KEYS_GAINED;
import static dev.hoplock.spring.observation.HoplockObservations.KEYS_LOST;
import static dev.hoplock.spring.observation.HoplockObservations.KEYS_MOVED;
import static dev.hoplock.spring.observation.HoplockObservations.MEMBERS;
import static dev.hoplock.spring.observation.HoplockObservations.MEMBERS_JOINED;
import static dev.hoplock.spring.observation.HoplockObservations.MEMBERS_LEFT;
import static dev.hoplock.spring.observation.HoplockObservations.PRIMITIVE;

/**
 * hoplock's own names and key values of a membership change: the name {@code hoplock.membership.change}, the
 * contextual name {@code hoplock membership change}, the low-cardinality keys {@code primitive=ownership} and
 * {@code group}; as high-cardinality keys numbers only: the epoch, keys gained, lost and moved, members now, joined and
 * left. Never a key or a member id. Stateless.
 */
public class DefaultMembershipChangeObservationConvention implements MembershipChangeObservationConvention {

    /** The shared instance. */
    public static final DefaultMembershipChangeObservationConvention INSTANCE =
            new DefaultMembershipChangeObservationConvention();

    @Override
    public String getName() {
        return HoplockObservations.MEMBERSHIP_CHANGE;
    }

    @Override
    public @Nullable String getContextualName(MembershipChangeObservationContext context) {
        return "hoplock membership change";
    }

    @Override
    public KeyValues getLowCardinalityKeyValues(MembershipChangeObservationContext context) {
        return KeyValues.of(PRIMITIVE, "ownership", GROUP, context.getChange().group());
    }

    @Override
    public KeyValues getHighCardinalityKeyValues(MembershipChangeObservationContext context) {
        OwnershipChange change = context.getChange();
        return KeyValues.of(EPOCH, Long.toString(change.epoch()),
                KEYS_GAINED, Integer.toString(change.gained().size()),
                KEYS_LOST, Integer.toString(change.lost().size()),
                KEYS_MOVED, Integer.toString(change.movedKeys()),
                MEMBERS, Integer.toString(change.current().size()),
                MEMBERS_JOINED, Integer.toString(change.joined().size()),
                MEMBERS_LEFT, Integer.toString(change.left().size()));
    }
}
