package dev.hoplock.core;

import java.time.Instant;
import java.util.Objects;

/**
 * A lease this process holds, as it was last written to the store.
 *
 * <p>Guarantees: {@link #generation()} is the fencing token: it is strictly greater than the generation of every
 * earlier holder of the same key (as long as the record is only changed by hoplock nodes and not deleted), so a
 * downstream system that rejects writes stamped with a lower generation than one it has seen rejects every write
 * from a deposed leader. {@link #expiresAt()} is the expiry written to the store by this process's wall clock;
 * the process itself stops leader work earlier, at its self-fencing deadline.
 *
 * @param key        the lease key in the store
 * @param owner      this process's owner id
 * @param generation the fencing token
 * @param expiresAt  the expiry written to the store (wall clock)
 */
public record Lease(String key, String owner, long generation, Instant expiresAt) {

    public Lease {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(expiresAt, "expiresAt");
    }
}
