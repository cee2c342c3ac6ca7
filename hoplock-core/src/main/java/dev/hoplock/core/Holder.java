package dev.hoplock.core;

import java.time.Instant;
import java.util.Objects;

/**
 * Who holds a lease according to the last record this process read or wrote. A view, not a promise: the holder
 * may have changed since.
 *
 * @param owner      the holder's owner id (empty for a corrupt record whose owner is unknown)
 * @param generation the holder's generation
 * @param expiresAt  the expiry the holder wrote (by its own wall clock)
 */
public record Holder(String owner, long generation, Instant expiresAt) {

    public Holder {
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(expiresAt, "expiresAt");
    }
}
