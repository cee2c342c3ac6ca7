package dev.hoplock.spring.observation;

import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

/**
 * The context of a {@link HoplockObservations#LEASE} observation: one term of a lease this instance holds, of an
 * election, a named lock or the ownership group member's liveness lease. Never the lease key, the lock's name or an
 * owner id.
 *
 * <p>{@link #getOutcome()} and {@link #getCause()} are null while the term lasts and set before it stops.
 */
public final class LeaseObservationContext extends Observation.Context {

    private final String primitive;
    private final String primitiveName;
    private final String acquisition;
    private final long generation;
    private @Nullable String outcome;
    private @Nullable String cause;

    /**
     * @param primitive     {@code election}, {@code lock} or {@code ownership}
     * @param primitiveName the election's name, {@code locks}, or the ownership group's name
     * @param acquisition   {@code takeover}, {@code free} or {@code unknown}
     * @param generation    the lease's generation (fencing token) at acquisition
     */
    public LeaseObservationContext(String primitive, String primitiveName, String acquisition, long generation) {
        this.primitive = primitive;
        this.primitiveName = primitiveName;
        this.acquisition = acquisition;
        this.generation = generation;
    }

    /** {@code election}, {@code lock} or {@code ownership}. */
    public String getPrimitive() {
        return primitive;
    }

    /** The election's name, {@code locks}, or the ownership group's name (the {@code name} key). */
    public String getPrimitiveName() {
        return primitiveName;
    }

    /** {@code takeover}, {@code free} or {@code unknown}. */
    public String getAcquisition() {
        return acquisition;
    }

    /** The lease's generation (fencing token) at acquisition. */
    public long getGeneration() {
        return generation;
    }

    /** {@code released}, {@code lost} or {@code closed}; null while the term lasts. */
    public @Nullable String getOutcome() {
        return outcome;
    }

    /** The cause of the end ({@code stepped_down}, {@code deadline_passed}, ...); null while the term lasts. */
    public @Nullable String getCause() {
        return cause;
    }

    /** Sets how the term ended, before the observation stops. */
    public void setEnd(String outcome, String cause) {
        this.outcome = outcome;
        this.cause = cause;
    }
}
