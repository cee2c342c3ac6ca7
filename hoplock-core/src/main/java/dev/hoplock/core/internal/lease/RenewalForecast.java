package dev.hoplock.core.internal.lease;

import dev.hoplock.core.election.Elector;
import dev.hoplock.core.record.LeaseRecord;

import java.time.Duration;
import java.time.Instant;

/**
 * When a follower reads the record next: at its poll, or just after the holder's next renewal is due to land, if that
 * comes sooner. A leader sends its renewals at fixed instants (every renew interval from the first write of its term,
 * each anchored before the write: {@code expires_at = wall(t0) + TTL}), so the record a follower reads tells when the
 * next one will be sent: {@code expires_at - TTL + renew interval}. Reading a quarter of a poll after that instant
 * sees each renewal soon after it lands instead of up to a poll later; and since the holder's last renewal is seen
 * early too, the observation of rule 4 ({@link TakeoverDecision}) starts early, and a crashed leader is replaced
 * close to one TTL after its last renewal rather than up to a poll later (issue 24: failover p99).
 *
 * <p>Guarantees: liveness only. The answer is never longer than {@code wait} (the caller's own wait, at most a poll) and
 * never negative; it changes when the follower looks, never what it decides when it looks, so no safety rule depends
 * on it. A forecast from a holder with other timings or a skewed clock is wrong only in when the read comes: once the
 * forecast instant has passed, the caller's wait stands. The forecast is used only when the renew interval is a whole
 * number of polls (the defaults: five): the reads then lock to the renewals and a follower makes as many reads as with
 * the poll alone, one every poll; a renewal that lands more than a quarter of a poll after its forecast costs one read
 * more in its cycle. With other ratios the poll alone stands. Pure: no clock is read and no state is kept. Internal to
 * {@code dev.hoplock.core}; used by the {@link Elector}'s follower.
 */
public final class RenewalForecast {

    private RenewalForecast() {
    }

    /**
     * The delay before the next read.
     *
     * @param wait          the wait the follower would make otherwise (at most its poll)
     * @param seen          what the follower observed
     * @param wallNow       the wall clock now
     * @param ttl           the lease duration (the holder's is assumed to be the same)
     * @param renewInterval the renew interval (the holder's is assumed to be the same)
     * @param pollInterval  the poll interval; a quarter of it is allowed for the renewal to land
     */
    public static Duration nextRead(Duration wait, Observation seen, Instant wallNow, Duration ttl,
                                    Duration renewInterval, Duration pollInterval) {
        if (!(seen instanceof Observation.Present present)) {
            return wait;
        }
        LeaseRecord record = present.record();
        if (record == null || record.isReleased() || !renewalsFallOnPolls(renewInterval, pollInterval)) {
            return wait;
        }
        Instant expiresAt = record.expiresAt();
        long landingNanos = pollInterval.toNanos() / 4;
        long untilLanded;
        try {
            untilLanded = TakeoverDecision.nanosUntil(wallNow,
                    expiresAt.minus(ttl).plus(renewInterval).plusNanos(landingNanos));
        } catch (ArithmeticException | java.time.DateTimeException e) {
            return wait; // an expires_at at the edge of time (Go's zero time is released; a year 9999 is not)
        }
        if (untilLanded == 0 || untilLanded >= wait.toNanos()) {
            return wait;
        }
        return Duration.ofNanos(untilLanded);
    }

    /**
     * True when the renew interval is a whole number of polls (within a hundredth of a poll: the defaults, TTL/3 and
     * TTL/15, are five polls to the nanosecond's rounding). Only then do reads locked to the renewals keep the poll's
     * count: with other ratios, a read per renewal added to the polls would be an extra read per renewal (three times
     * the reads when the poll is twice the renew interval), so the poll alone stands.
     */
    static boolean renewalsFallOnPolls(Duration renewInterval, Duration pollInterval) {
        long poll = pollInterval.toNanos();
        long renew = renewInterval.toNanos();
        if (poll <= 0 || renew < poll) {
            return false;
        }
        long polls = Math.round((double) renew / poll);
        return Math.abs(renew - polls * poll) <= poll / 100;
    }
}
