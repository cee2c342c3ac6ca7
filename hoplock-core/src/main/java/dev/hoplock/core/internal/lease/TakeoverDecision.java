package dev.hoplock.core.internal.lease;

import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.election.Elector;
import dev.hoplock.core.election.ElectorSettings;
import dev.hoplock.core.record.LeaseRecord;

import java.time.Duration;
import java.time.Instant;

/**
 * Rule 4 (takeover only after local observation) and rule 6 (fencing tokens) of the {@link Elector}'s safety argument
 * as one pure function: given what a candidate observed of the key, the monotonic and wall clocks now and the lease
 * timings, either <em>acquire</em> (write a record at a new generation, conditional on the version observed) or
 * <em>wait</em> (look again after a delay).
 *
 * <p>Guarantees, for a candidate that may campaign at all (that is the caller's question: a paused, stopping or
 * releasing elector does not ask):
 * <ul>
 *   <li>a record held by another owner is acquired only when it is expired by the wall clock {@code wallNow} <em>and</em>
 *       the same version has been observed for a whole TTL on the monotonic clock since its first sighting;</li>
 *   <li>a corrupt record (no record, a handle) is acquired only after a whole TTL of unchanged observation;</li>
 *   <li>a released record (no owner, expired) is acquired at once;</li>
 *   <li>an absent key seen present before is acquired only after an unbroken observation of the absence for
 *       {@link Observation.Absent#observeNanos()} and once the last seen {@code expires_at} has passed by the wall
 *       clock ({@link DeletedRecordRule}); a key never seen present is acquired at once;</li>
 *   <li>the generation to write is above every generation seen ({@code highestGeneration + 1}); at
 *       {@code Long.MAX_VALUE} there is none, so it waits a poll for ever (rule 6);</li>
 *   <li>a wait is never longer than the poll interval, so the caller looks again at least once per poll; for a record
 *       held by another owner it ends when the observation would be long enough and the record expired, if that comes
 *       sooner (but not before a twentieth of a poll), so that a takeover follows the holder's expiry without waiting
 *       for the next poll. While the holder renews, that is never sooner unless the poll is longer than TTL minus the
 *       holder's renew interval (then one read more per version).</li>
 * </ul>
 * No clock is read and no state is kept: the same inputs give the same answer. Internal to {@code dev.hoplock.core};
 * shared by the elector, named locks and {@link ExpiryWitness}.
 * <p>Implements E4 and E6; text in {@link Elector}.
 */
public final class TakeoverDecision {

    private TakeoverDecision() {
    }

    /** What the candidate does next. */
    public sealed interface Outcome {
    }

    /**
     * Write a new record at {@code generation}, conditional on {@code expected} ({@link Handle#NONE}: a create).
     *
     * @param expected   the handle the write must replace, or {@link Handle#NONE} to create an absent key
     * @param generation the fencing token to write, above every generation seen
     * @param reason     why the key is free, for logs
     */
    public record Acquire(Handle expected, long generation, Why reason) implements Outcome {
    }

    /** Look again after {@code delay} (at most a poll). */
    public record Wait(Duration delay) implements Outcome {
    }

    /** Why a key may be taken now. */
    public enum Why {
        /** Absent, and never seen present or absent for long enough. */
        ABSENT,
        /** Written by a graceful release: its writer has stopped. */
        RELEASED,
        /** Expired by the wall clock and unchanged for a TTL on the monotonic clock. */
        EXPIRED_AND_UNCHANGED,
        /** Corrupt and unchanged for a TTL on the monotonic clock. */
        CORRUPT_AND_UNCHANGED
    }

    /**
     * The decision for {@code seen}.
     *
     * @param seen              the observation of the key
     * @param highestGeneration the highest generation this candidate has seen for the key (0 if none)
     * @param nowNanos          the monotonic clock now
     * @param wallNow           the wall clock now
     * @param ttl               the lease duration
     * @param pollInterval      the longest wait before looking again
     */
    public static Outcome decide(Observation seen, long highestGeneration, long nowNanos, Instant wallNow, Duration ttl,
                          Duration pollInterval) {
        long ttlNanos = ttl.toNanos();
        if (seen instanceof Observation.Absent absent) {
            Duration untilFree = untilFree(absent, nowNanos, wallNow);
            if (!untilFree.isZero()) {
                return new Wait(min(pollInterval, untilFree));
            }
            return acquire(Handle.NONE, highestGeneration, Why.ABSENT, pollInterval);
        }
        Observation.Present present = (Observation.Present) seen;
        long unchangedFor = nowNanos - present.firstSeenNanos();
        boolean observedLongEnough = unchangedFor(present, nowNanos, ttl);
        LeaseRecord record = present.record();
        if (record == null) {
            if (observedLongEnough) {
                return acquire(present.handle(), highestGeneration, Why.CORRUPT_AND_UNCHANGED, pollInterval);
            }
            return new Wait(min(pollInterval, Duration.ofNanos(Math.max(0, ttlNanos - unchangedFor))));
        }
        if (record.isReleased()) {
            return acquire(present.handle(), highestGeneration, Why.RELEASED, pollInterval);
        }
        if (record.isExpiredAt(wallNow) && observedLongEnough) {
            return acquire(present.handle(), highestGeneration, Why.EXPIRED_AND_UNCHANGED, pollInterval);
        }
        // Look again when both halves can hold, if that comes before the next poll: the read that follows then finds
        // the version observed long enough and expired, instead of up to a poll later (liveness only: the test above
        // is the same whenever the caller looks).
        // At least a twentieth of a poll, so that a coarse wall clock (or a record expiring a few nanoseconds ahead)
        // never turns this into a run of reads.
        long untilFree = Math.max(Math.max(0, ttlNanos - unchangedFor), nanosUntil(wallNow, record.expiresAt()));
        long floor = pollInterval.toNanos() / 20;
        return new Wait(untilFree == 0 ? pollInterval
                : min(pollInterval, Duration.ofNanos(Math.max(untilFree, floor))));
    }

    /**
     * E4's local half, the one test of "unchanged for long enough" that {@link #decide} and the operator's release of
     * a stuck record ({@code dev.hoplock.core.operations.StuckLeaseRelease}) share: true when the version {@code seen}
     * has stayed unchanged (same handle) for at least {@code observe} on the monotonic clock, counted from the answer
     * of the first read that showed it ({@link Observation.Present#firstSeenNanos()}) to {@code nowNanos}.
     */
    public static boolean unchangedFor(Observation.Present seen, long nowNanos, Duration observe) {
        return nowNanos - seen.firstSeenNanos() >= observe.toNanos();
    }

    /**
     * Rule L3 (text in {@code dev.hoplock.core.lock}), the one computation of how long a version held by another owner
     * is observed before it is taken over or released by an operator ({@code StuckLeaseRelease}): the longer of
     * {@code ttl} and {@code validityAtFirstSightNanos}, the validity the record showed when first seen (by the wall
     * clock, {@link #nanosUntil}; a holder may have asked for a longer TTL than the observer's and need not renew).
     */
    public static Duration observationFor(Duration ttl, long validityAtFirstSightNanos) {
        return Duration.ofNanos(Math.max(ttl.toNanos(), validityAtFirstSightNanos));
    }

    /** As {@link #decide(Observation, long, long, Instant, Duration, Duration)} with the elector's settings. */
    public static Outcome decide(Observation seen, long highestGeneration, long nowNanos, Instant wallNow,
                          ElectorSettings settings) {
        return decide(seen, highestGeneration, nowNanos, wallNow, settings.ttl(), settings.pollInterval());
    }

    /**
     * How much longer an absent key counts as held ({@link DeletedRecordRule}); zero when it may be created now.
     */
    static Duration untilFree(Observation.Absent absent, long nowNanos, Instant wallNow) {
        if (!absent.watched()) {
            return Duration.ZERO;
        }
        long left = Math.max(0, absent.observeNanos() - (nowNanos - absent.absentSinceNanos()));
        if (absent.lastExpiresAt() != null) {
            left = Math.max(left, nanosUntil(wallNow, absent.lastExpiresAt()));
        }
        return Duration.ofNanos(left);
    }

    /**
     * Rule 6: the generation above {@code highestGeneration}, or 0 when there is none ({@code Long.MAX_VALUE} seen: no
     * higher fencing token exists, so the key is never taken over).
     */
    public static long nextGeneration(long highestGeneration) {
        long next = highestGeneration + 1;
        return next <= 0 ? 0 : next;
    }

    /**
     * Nanoseconds from {@code from} to {@code to}: zero when {@code to} is not later, saturated for instants centuries
     * apart (Go's zero time on a released record, a clock set to the year 9999), where {@link Duration#toNanos()}
     * would overflow.
     */
    public static long nanosUntil(Instant from, Instant to) {
        if (!to.isAfter(from)) {
            return 0;
        }
        Duration between = Duration.between(from, to);
        return between.getSeconds() >= Long.MAX_VALUE / 4_000_000_000L ? Long.MAX_VALUE / 4 : between.toNanos();
    }

    private static Outcome acquire(Handle expected, long highestGeneration, Why reason, Duration pollInterval) {
        long generation = nextGeneration(highestGeneration);
        return generation == 0 ? new Wait(pollInterval) : new Acquire(expected, generation, reason);
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }
}
