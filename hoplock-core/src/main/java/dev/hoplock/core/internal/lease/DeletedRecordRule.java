package dev.hoplock.core.internal.lease;

import dev.hoplock.core.election.Elector;
import dev.hoplock.core.record.LeaseRecord;

import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.time.Instant;

/**
 * Rule 4 of the {@link Elector}'s safety argument for a record that disappears: when this elector may create the key
 * again after a read found it absent.
 *
 * <p>A create ({@code If-None-Match: *}) succeeds against any absence, so unlike a takeover it does not check which
 * version it replaces; and any number of versions may have come and gone between the last read that saw a record and
 * the first read that finds none (the holder renewed, or re-created the key after an earlier delete). So once this
 * elector has seen the key present, an absence counts as a version of its own, free only when all three hold:
 * <ol>
 *   <li>it was observed absent for a whole TTL on the monotonic clock, counted from the answer of the <em>first</em>
 *       read that found it absent (the holder's last write took effect before the delete, so before that answer).
 *       The observation must be unbroken: a read that fails (an error, a timeout) may hide a version that came and
 *       went, so the next read that finds the key absent starts the observation again;</li>
 *   <li>for as long, too, as the validity the last seen record showed when it was first seen ({@code expires_at}
 *       minus the wall time then): a holder with a longer TTL may have renewed it unseen just before the delete;</li>
 *   <li>the last seen {@code expires_at} has passed by the local wall clock, as for an unchanged version.</li>
 * </ol>
 * A key this elector never saw present (a fresh start) is free at once: deletion is detected, not prevented. (An
 * {@link ExpiryWitness} presumes the key present from the start, as it watches a term known to exist.)
 * Not thread-safe: used under the owner's lock (through {@link ObservationTracker}). The decision itself is
 * {@link TakeoverDecision#untilFree}.
 * <p>Implements E4 for a record that disappears; text in {@link Elector}.
 */
final class DeletedRecordRule {

    private final long ttlNanos;
    /** Whether a record was ever seen; false until then. */
    private boolean seenPresent;
    /** {@code expires_at} of the last seen record; null when it was corrupt (no expiry to wait for). */
    private @Nullable Instant lastExpiresAt;
    /** Rule 2: the validity the last seen record showed when first seen, never below zero. */
    private long lastValidityNanos;
    /** Whether a read found the key absent since a version was last seen (the problem is reported once per absence). */
    private boolean absenceSeen;
    /**
     * Rule 1: the answer of the first read that found the key absent since it was last seen or since the last failed
     * read; null while present or after a failed read.
     */
    private @Nullable Long absentSinceNanos;

    DeletedRecordRule(Duration ttl) {
        this(ttl, false);
    }

    /**
     * @param presumePresent true for an observer that knows the key was written before it looked (a witness of a
     *                       registered term, {@link ExpiryWitness}): an absence is then never a fresh start, and is
     *                       free only after an unbroken observation of a TTL even if no record was ever seen
     */
    DeletedRecordRule(Duration ttl, boolean presumePresent) {
        this.ttlNanos = ttl.toNanos();
        this.seenPresent = presumePresent;
    }

    /**
     * A read or write showed a new version: {@code record} (null when corrupt) first seen at {@code wallNow}. Ends any
     * absence being observed.
     */
    void sawVersion(@Nullable LeaseRecord record, Instant wallNow) {
        seenPresent = true;
        lastExpiresAt = record == null ? null : record.expiresAt();
        lastValidityNanos = record == null ? 0 : TakeoverDecision.nanosUntil(wallNow, record.expiresAt());
        absenceSeen = false;
        absentSinceNanos = null;
    }

    /** A read showed the version already seen: any absence observed before is over. */
    void sawSameVersion() {
        absenceSeen = false;
        absentSinceNanos = null;
    }

    /** A read failed: what the store held meanwhile is unknown, so the observation of an absence starts again. */
    void lostSight() {
        absentSinceNanos = null;
    }

    /**
     * A read answered "absent" at {@code nowNanos}. Returns true when this is the first read that found the key absent
     * since a version was seen (the absence is new), false otherwise.
     */
    boolean sawAbsent(long nowNanos) {
        if (!seenPresent) {
            return false;
        }
        if (absentSinceNanos == null) {
            absentSinceNanos = nowNanos;
        }
        boolean fresh = !absenceSeen;
        absenceSeen = true;
        return fresh;
    }

    /**
     * The absence as {@link TakeoverDecision} needs it: watched while an unbroken observation runs, with how long it
     * must last (the longer of the TTL and the last seen record's validity) and the last seen {@code expires_at}.
     */
    Observation.Absent absence() {
        if (absentSinceNanos == null) {
            return Observation.Absent.unwatched();
        }
        return new Observation.Absent(true, absentSinceNanos, Math.max(ttlNanos, lastValidityNanos), lastExpiresAt);
    }
}
