package dev.hoplock.spring.observation;

import dev.hoplock.spring.ownership.HoplockOwnership;
import dev.hoplock.spring.ownership.OwnershipChange;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.DisposableBean;

import java.util.Objects;

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
 * One {@link HoplockObservations#MEMBERSHIP_CHANGE} observation per membership change the ownership group adopted
 * here (an instant: started and stopped when the change is reported), with the low-cardinality keys
 * {@code primitive=ownership} and {@code group}, and, as high-cardinality keys (numbers only, so that they never
 * become meter tags), the epoch, how many of the keys seen here were gained, lost and moved, and how many members
 * there are, joined and left.
 *
 * <p>Guarantees: never records a key or a member id; subscribes when constructed, before the group starts.
 */
public final class MembershipObservations implements DisposableBean {

    private final ObservationRegistry registry;
    private final AutoCloseable subscription;

    public MembershipObservations(ObservationRegistry registry, HoplockOwnership ownership) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.subscription = ownership.addChangeListener(this::observe);
    }

    private void observe(OwnershipChange change) {
        Observation.createNotStarted(HoplockObservations.MEMBERSHIP_CHANGE, registry)
                .contextualName("hoplock membership change")
                .parentObservation(null)
                .lowCardinalityKeyValue(PRIMITIVE, "ownership")
                .lowCardinalityKeyValue(GROUP, change.group())
                .highCardinalityKeyValue(EPOCH, Long.toString(change.epoch()))
                .highCardinalityKeyValue(KEYS_GAINED, Integer.toString(change.gained().size()))
                .highCardinalityKeyValue(KEYS_LOST, Integer.toString(change.lost().size()))
                .highCardinalityKeyValue(KEYS_MOVED, Integer.toString(change.movedKeys()))
                .highCardinalityKeyValue(MEMBERS, Integer.toString(change.current().size()))
                .highCardinalityKeyValue(MEMBERS_JOINED, Integer.toString(change.joined().size()))
                .highCardinalityKeyValue(MEMBERS_LEFT, Integer.toString(change.left().size()))
                .start()
                .stop();
    }

    @Override
    public void destroy() throws Exception {
        subscription.close();
    }
}
