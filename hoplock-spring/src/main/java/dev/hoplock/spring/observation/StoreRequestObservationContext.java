package dev.hoplock.spring.observation;

import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

/**
 * The context of a {@link HoplockObservations#STORE_REQUEST} observation: what {@link ObservedBackend} knows of one
 * store request. Never the lease key, the record or the store's address.
 *
 * <p>{@link #getOutcome()} and {@link #getResult()} are null while the request runs and set before the observation
 * stops, so a convention sees them when its key values are asked for at the stop.
 */
public final class StoreRequestObservationContext extends Observation.Context {

    private final String store;
    private final String primitive;
    private final String primitiveName;
    private final String operation;
    private @Nullable String outcome;
    private @Nullable String result;

    /**
     * @param store         the store kind ({@code s3}, {@code memory}, ...)
     * @param primitive     {@code election}, {@code lock} or {@code ownership}
     * @param primitiveName the election's name, {@code locks} or the ownership group's name
     * @param operation     {@code read}, {@code write}, {@code delete} or {@code verify}
     */
    public StoreRequestObservationContext(String store, String primitive, String primitiveName, String operation) {
        this.store = store;
        this.primitive = primitive;
        this.primitiveName = primitiveName;
        this.operation = operation;
    }

    /** The store kind, as the {@code store} key names it. */
    public String getStore() {
        return store;
    }

    /** {@code election}, {@code lock} or {@code ownership}. */
    public String getPrimitive() {
        return primitive;
    }

    /** The election's name, {@code locks}, or the ownership group's name (the {@code name} key). */
    public String getPrimitiveName() {
        return primitiveName;
    }

    /** {@code read}, {@code write}, {@code delete} or {@code verify}. */
    public String getOperation() {
        return operation;
    }

    /** {@code applied}, {@code refused}, {@code unknown} or {@code error}; null while the request runs. */
    public @Nullable String getOutcome() {
        return outcome;
    }

    /** What the store answered ({@code found}, {@code written}, ...); null while the request runs. */
    public @Nullable String getResult() {
        return result;
    }

    /** Sets the outcome and the result, before the observation stops. */
    public void setOutcome(String outcome, String result) {
        this.outcome = outcome;
        this.result = result;
    }
}
