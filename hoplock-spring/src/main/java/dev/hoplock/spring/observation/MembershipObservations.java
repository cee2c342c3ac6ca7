package dev.hoplock.spring.observation;

import dev.hoplock.spring.ownership.HoplockOwnership;
import dev.hoplock.spring.ownership.OwnershipChange;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.DisposableBean;

import java.util.Objects;


/**
 * One {@link HoplockObservations#MEMBERSHIP_CHANGE} observation per membership change the ownership group adopted
 * here (an instant: started and stopped when the change is reported), with the low-cardinality keys
 * {@code primitive=ownership} and {@code group}, and, as high-cardinality keys (numbers only, so that they never
 * become meter tags), the epoch, how many of the keys seen here were gained, lost and moved, and how many members
 * there are, joined and left.
 *
 * <p>{@link DefaultMembershipChangeObservationConvention} names them; an application's
 * {@link MembershipChangeObservationConvention} renames them or adds key values.
 *
 * <p>Guarantees: never records a key or a member id (with the default convention); subscribes when constructed, before the group starts.
 */
public final class MembershipObservations implements DisposableBean {

    private final ObservationRegistry registry;
    private final @Nullable MembershipChangeObservationConvention convention;
    private final AutoCloseable subscription;

    /** Observes the changes of {@code ownership} with the registry's global convention, else the default one. */
    public MembershipObservations(ObservationRegistry registry, HoplockOwnership ownership) {
        this(registry, ownership, null);
    }

    /**
     * Observes the changes of {@code ownership} with the application's {@code convention} (null: the registry's global
     * one for these contexts, if any, else {@link DefaultMembershipChangeObservationConvention}).
     */
    public MembershipObservations(ObservationRegistry registry, HoplockOwnership ownership,
            @Nullable MembershipChangeObservationConvention convention) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.convention = convention;
        this.subscription = ownership.addChangeListener(this::observe);
    }

    private void observe(OwnershipChange change) {
        Observation.createNotStarted(convention, DefaultMembershipChangeObservationConvention.INSTANCE,
                        () -> new MembershipChangeObservationContext(change), registry)
                .parentObservation(null)
                .start()
                .stop();
    }

    @Override
    public void destroy() throws Exception {
        subscription.close();
    }
}
