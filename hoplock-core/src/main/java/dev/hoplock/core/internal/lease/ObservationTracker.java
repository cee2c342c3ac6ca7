package dev.hoplock.core.internal.lease;

import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.election.Elector;
import dev.hoplock.core.record.LeaseRecord;
import org.jspecify.annotations.Nullable;

import java.time.Instant;

/**
 * The observation of one lease key that rule 4 of the {@link Elector}'s safety argument rests on: which version a
 * candidate sees and when (monotonic) it first saw it, and, once the key disappears, the unbroken observation of its
 * absence ({@link DeletedRecordRule}). Its {@link #current()} is the input of {@link TakeoverDecision}.
 *
 * <p>Guarantees: the first-seen time of a version is the answer time of the first read or write that showed its
 * handle, and it is never moved forward by later sightings of the same handle (so a version "unchanged for a TTL"
 * really was seen unchanged that long); a new handle restarts it. A failed read breaks the observation of an absence.
 * Not thread-safe: used under its owner's lock. Internal to {@code dev.hoplock.core}; shared by the elector, named
 * locks and {@link ExpiryWitness}.
 * <p>Implements E4 (what was observed, and since when); text in {@link Elector}.
 */
public final class ObservationTracker {

    private final DeletedRecordRule deleted;
    private Observation.@Nullable Present present;

    public ObservationTracker(java.time.Duration ttl) {
        this(ttl, false);
    }

    /** @param presumePresent see {@link DeletedRecordRule#DeletedRecordRule(java.time.Duration, boolean)} */
    public ObservationTracker(java.time.Duration ttl, boolean presumePresent) {
        this.deleted = new DeletedRecordRule(ttl, presumePresent);
    }

    /** The version last seen, or null when the key was last seen absent, was forgotten, or nothing was seen yet. */
    public Observation.@Nullable Present present() {
        return present;
    }

    /**
     * A read or write at {@code nowNanos} showed the version {@code handle} ({@code record} null when corrupt).
     * Returns true when it is a new version (its first sighting starts now), false when it is the one already seen.
     */
    public boolean sawVersion(Handle handle, @Nullable LeaseRecord record, long nowNanos, Instant wallNow) {
        if (present != null && present.handle().equals(handle)) {
            deleted.sawSameVersion();
            return false;
        }
        present = new Observation.Present(handle, record, nowNanos);
        deleted.sawVersion(record, wallNow);
        return true;
    }

    /** No version is known to be current any more (a read found none, or our own delete removed ours). */
    public void forget() {
        present = null;
    }

    /**
     * A read answered "absent" at {@code nowNanos}; call after {@link #forget()}. Returns true for the first such read
     * since a version was seen (a new absence, reported by the caller when the holder was another owner).
     */
    public boolean sawAbsent(long nowNanos) {
        return deleted.sawAbsent(nowNanos);
    }

    /** A read failed: the observation of an absence starts again at the next read that finds the key absent. */
    public void lostSight() {
        deleted.lostSight();
    }

    /** The observation to decide on: the present version, or the absence as {@link DeletedRecordRule} tracks it. */
    public Observation current() {
        return present != null ? present : deleted.absence();
    }
}
