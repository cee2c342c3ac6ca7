package dev.hoplock.core.backend;

import java.util.Objects;

/**
 * A consumer needs a capability its store lacks ({@link StoreCapabilities#require}): for example release by DELETE
 * on a store that ignores {@code If-Match} on DELETE.
 *
 * <p>Guarantees: of kind {@link Kind#CONDITIONAL_WRITES_NOT_SUPPORTED} (not retryable: only a change of store or of
 * configuration helps); the message names the store, the missing capability, what the probe saw, why the consumer
 * needs it, and never contains credentials.
 */
public final class StoreNotCapableException extends BackendException {

    private static final long serialVersionUID = 1L;

    private final StoreCapabilities.Capability missing;
    private final transient StoreCapabilities capabilities;

    StoreNotCapableException(StoreCapabilities.Capability missing, StoreCapabilities capabilities, String message) {
        super(Kind.CONDITIONAL_WRITES_NOT_SUPPORTED, message);
        this.missing = Objects.requireNonNull(missing, "missing");
        this.capabilities = Objects.requireNonNull(capabilities, "capabilities");
    }

    /** The capability the consumer needs and the store lacks. */
    public StoreCapabilities.Capability missing() {
        return missing;
    }

    /** The whole report the refusal was made from (null only after deserialisation). */
    public StoreCapabilities capabilities() {
        return capabilities;
    }
}
