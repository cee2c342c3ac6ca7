package dev.hoplock.core.internal.lease;

import dev.hoplock.core.election.Elector;
import dev.hoplock.core.election.ElectorSettings;
import dev.hoplock.core.record.LeaseRecord;

import java.time.Duration;

/**
 * The time arithmetic of rule 1 of the {@link Elector}'s safety argument (validity anchored before the write, on both
 * clocks) and of the loop's retries. Pure functions of the settings, a write's {@code t0} and record, and the clocks'
 * readings given by the caller.
 *
 * <p>Guarantees: a term on a write sent at monotonic {@code t0} with {@code expires_at = wall(t0) + ttl} ends at
 * {@link #deadlineNanos} on the monotonic clock and at {@link #wallDeadlineMillis} on the wall clock, both
 * {@code safetyMargin} before the lease's end; a leader's retry is never scheduled so late that it cannot land before
 * the deadline. Internal to {@code dev.hoplock.core}; shared by the elector and named locks.
 * <p>Implements E1 (the deadlines on both clocks); text in {@link Elector}.
 */
public final class LeaseTimes {

    /** The shortest gap between a leader's retries near its deadline. */
    static final Duration MIN_RETRY_GAP = Duration.ofMillis(50);

    private final ElectorSettings settings;
    private final long ttlNanos;
    private final long safetyNanos;

    public LeaseTimes(ElectorSettings settings) {
        this.settings = settings;
        this.ttlNanos = settings.ttl().toNanos();
        this.safetyNanos = settings.safetyMargin().toNanos();
    }

    /** Rule 1's monotonic deadline of a term on a write sent at {@code t0}: {@code t0 + ttl - safetyMargin}. */
    public long deadlineNanos(long t0) {
        return deadlineNanos(t0, ttlNanos, safetyNanos);
    }

    /**
     * Rule 1's wall deadline of a term on {@code record}: {@code expires_at - safetyMargin}, where {@code expires_at}
     * is {@code wall(t0) + ttl} read right after the monotonic {@code t0} of the same write.
     */
    public long wallDeadlineMillis(LeaseRecord record) {
        return wallDeadlineMillis(record, safetyNanos);
    }

    /**
     * Rule 1 for a write whose TTL is chosen per write (a named lock): the monotonic deadline {@code t0 + ttl -
     * safetyMargin}. The one formula; the elector's {@link #deadlineNanos(long)} uses it too.
     */
    public static long deadlineNanos(long t0, long ttlNanos, long safetyNanos) {
        return t0 + ttlNanos - safetyNanos;
    }

    /** Rule 1 for a write whose TTL is chosen per write: the wall deadline {@code expires_at - safetyMargin}. */
    public static long wallDeadlineMillis(LeaseRecord record, long safetyNanos) {
        return record.expiresAt().minusNanos(safetyNanos).toEpochMilli();
    }

    /** Rules 1 and 3: the longest wait for a write that acquires a term: the request timeout, within the usable lease. */
    public Duration acquireTimeout() {
        return min(settings.requestTimeout(), Duration.ofNanos(ttlNanos - safetyNanos));
    }

    /**
     * Whether the renewal of {@code owned} is due by the wall clock ({@code wallMillis}): its write's wall time plus
     * the renew interval. The renewal timer counts monotonic time, which stands still during a suspend.
     */
    public boolean renewalDueByWallClock(Owned owned, long wallMillis) {
        long writtenAtMillis = owned.record().expiresAt().toEpochMilli() - settings.ttl().toMillis();
        return wallMillis - writtenAtMillis >= settings.renewInterval().toMillis();
    }

    /** The delay from {@code nowNanos} until the renewal of a write sent at {@code t0} is due (never negative). */
    public Duration untilRenewal(long t0, long nowNanos) {
        long due = t0 + settings.renewInterval().toNanos() - nowNanos;
        return Duration.ofNanos(Math.max(0, due));
    }

    /**
     * When a leader retries a failed request (a renewal, or the read that checks a refused renewal), given the time
     * its term has {@code left}: after a poll, but never so late that the retry cannot land before the term's
     * deadline; with less than two polls left, halfway to the deadline. With almost nothing left (under
     * {@link #MIN_RETRY_GAP} or a tenth of a poll, whichever is less, per retry) the term is left to end, so that fast
     * failures near the deadline cause a few retries, not a burst.
     */
    public Duration retryDelay(Duration left) {
        Duration half = left.dividedBy(2);
        if (half.compareTo(min(MIN_RETRY_GAP, settings.pollInterval().dividedBy(10))) < 0) {
            return left;
        }
        return min(settings.pollInterval(), half);
    }

    public static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }
}
