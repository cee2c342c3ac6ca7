package dev.hoplock.core.record;

import java.time.Instant;
import java.util.Objects;

/**
 * The lease state stored in the backend object, shared byte for byte with Go hoplock.
 *
 * @param generation the fencing token: strictly increases at every change of holder; never negative
 * @param expiresAt  when the holder's lease ends by the writer's wall clock; {@link #ZERO_TIME} means expired
 * @param owner      the holder's unique id; empty for a released record
 * @param nonce      random text that makes every write's bytes unique; empty when the writer did not send one
 *                   (Go hoplock does not)
 */
public record LeaseRecord(long generation, Instant expiresAt, String owner, String nonce) {

    /** Go's zero {@code time.Time}, which Go hoplock reads as "expired". */
    public static final Instant ZERO_TIME = Instant.parse("0001-01-01T00:00:00Z");

    public LeaseRecord {
        if (generation < 0) {
            throw new IllegalArgumentException("generation must not be negative: " + generation);
        }
        Objects.requireNonNull(expiresAt, "expiresAt");
        owner = owner == null ? "" : owner;
        nonce = nonce == null ? "" : nonce;
    }

    /** A record that a graceful release writes: same generation, expired, no owner. */
    public static LeaseRecord released(long generation, String nonce) {
        return new LeaseRecord(generation, ZERO_TIME, "", nonce);
    }

    /** True when this record was written by a graceful release: nobody holds it, it may be taken at once. */
    public boolean isReleased() {
        return owner.isEmpty() && !expiresAt.isAfter(ZERO_TIME);
    }

    /** True when {@code now} (a wall-clock reading) is at or after the expiry. */
    public boolean isExpiredAt(Instant now) {
        return !now.isBefore(expiresAt);
    }
}
