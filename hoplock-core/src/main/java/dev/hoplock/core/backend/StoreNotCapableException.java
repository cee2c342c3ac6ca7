package dev.hoplock.core.backend;

import org.jspecify.annotations.Nullable;

import java.util.Objects;

/**
 * A consumer needs a capability its store lacks ({@link StoreCapabilities#require}): for example release by DELETE
 * on a store that ignores {@code If-Match} on DELETE, or per-key ownership on a store whose reads may lag
 * ({@link StoreCapabilities#requireCurrentReads(String)}).
 *
 * <p>Guarantees: of kind {@link Kind#CONDITIONAL_WRITES_NOT_SUPPORTED} (not retryable: only a change of store or of
 * configuration helps); the message names the store, the missing capability, what the probe saw, why the consumer
 * needs it, and never contains credentials.
 */
public final class StoreNotCapableException extends BackendException {

    private static final long serialVersionUID = 1L;

    private final StoreCapabilities.@Nullable Capability missing;
    private final transient StoreCapabilities capabilities;

    StoreNotCapableException(StoreCapabilities.@Nullable Capability missing, StoreCapabilities capabilities,
            String message) {
        super(Kind.CONDITIONAL_WRITES_NOT_SUPPORTED, message);
        this.missing = missing;
        this.capabilities = Objects.requireNonNull(capabilities, "capabilities");
    }

    /**
     * The conditional request the consumer needs and the store lacks, or null when what it lacks is current reads
     * ({@link StoreCapabilities#reads()}).
     */
    public StoreCapabilities.@Nullable Capability missing() {
        return missing;
    }

    /** The whole report the refusal was made from (null only after deserialisation). */
    public StoreCapabilities capabilities() {
        return capabilities;
    }
}
