package dev.hoplock.core.internal.lease;

import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.election.Elector;
import dev.hoplock.core.record.LeaseRecord;
import org.jspecify.annotations.Nullable;

import java.time.Instant;

/**
 * What a candidate knows about one lease key when it decides whether to take it ({@link TakeoverDecision}): the
 * version it sees and since when (rule 4 of the {@link Elector}'s safety argument), or that the key is absent and what
 * it saw before ({@link DeletedRecordRule}). Immutable; built by {@link ObservationTracker}.
 *
 * <p>Internal to {@code dev.hoplock.core}: shared by the elector and by other lease users of this package (named
 * locks), never part of the public API.
 */
public sealed interface Observation {

    /**
     * A version of the record is present.
     *
     * @param handle         the version's handle, as the store answered it
     * @param record         the decoded record, or null when it could not be parsed (a corrupt record counts as held)
     * @param firstSeenNanos the monotonic time of the answer of the first read (or write) that saw this version
     */
    record Present(Handle handle, @Nullable LeaseRecord record, long firstSeenNanos) implements Observation {
    }

    /**
     * The key is absent.
     *
     * @param watched         false when no version was ever seen (a fresh start: free at once), or when no unbroken
     *                        observation of the absence is running yet
     * @param absentSinceNanos the monotonic answer time of the first read that found the key absent (meaningful only
     *                        when {@code watched})
     * @param observeNanos    how long the absence must be observed: the longer of the TTL and the validity the last seen
     *                        record showed when first seen
     * @param lastExpiresAt   {@code expires_at} of the last seen record, or null when it was corrupt or none was seen
     */
    record Absent(boolean watched, long absentSinceNanos, long observeNanos, @Nullable Instant lastExpiresAt)
            implements Observation {

        /** An absence that counts as free at once: the key was never seen present. */
        static Absent unwatched() {
            return new Absent(false, 0, 0, null);
        }
    }
}
