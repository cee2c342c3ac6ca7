package dev.hoplock.core.internal.lease;

import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.election.Elector;
import dev.hoplock.core.record.LeaseRecord;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.time.Instant;

/**
 * Rule 4 of the {@link Elector}'s safety argument for an observer that never writes the lease key itself: whether the
 * reads this machine made prove that a lease's writer stopped renewing it, so that what it guarded may be handed on
 * (per-key ownership removes a silent member's registry entry on this evidence, its rule M6).
 *
 * <p>It is the elector's own rule, not a copy: the same {@code ObservationTracker} keeps the observation (a version's
 * first sighting, the unbroken observation of an absence, {@link DeletedRecordRule}), and the same
 * {@code TakeoverDecision} judges it. Two things differ, both on the safe side, because the elector's takeover is a
 * compare-and-swap on the lease key itself, which fails if the holder wrote again, while a witness acts elsewhere:
 * <ul>
 *   <li>the judgement is made as of when the <em>later</em> read was sent ({@link #provesEndAsOf}), not when its
 *       answer arrived: an answer delivered late (a pause of this process, a slow network) tells what the store held
 *       when the read took effect, which may be long before it is processed;</li>
 *   <li>the key is presumed written before the witness first looked, so an absence is never a fresh start: it counts
 *       only after an unbroken observation of a whole TTL, even when no record was ever seen.</li>
 * </ul>
 *
 * <p>Guarantees: {@link #provesEndAsOf} is true only when the version last seen (or the key's absence) was observed
 * unchanged on this machine's monotonic clock for a whole TTL, from the answer of the first read that showed it to the
 * sending of the read given, with no failed read breaking an absence, and the last {@code expires_at} seen had passed
 * by this machine's wall clock when that read was sent (an absence also waits the validity the last record showed);
 * a corrupt record needs the TTL alone; a released record proves it at once (its writer stopped before writing it).
 * It never trusts another machine's clock as the only evidence. Whether a record held by another owner ends the term
 * watched is the caller's question (it knows whose term that is); here such a record counts as held.
 * Not thread-safe: use it under one lock.
 */
public final class ExpiryWitness {

    private final ObservationTracker tracker;
    private final Duration ttl;

    /**
     * @param ttl how long the watched lease's holder may go without writing; the longest TTL that holder may use
     */
    public ExpiryWitness(Duration ttl) {
        this.ttl = ttl;
        this.tracker = new ObservationTracker(ttl, true);
    }

    /**
     * A read answered at {@code answerNanos} (monotonic) showed the version {@code handle}; {@code record} is null when
     * it could not be parsed. {@code wallAtSend} is the wall clock when that read was sent: the record's validity is
     * measured from it, which can only make it longer.
     */
    public void sawVersion(Handle handle, @Nullable LeaseRecord record, long answerNanos, Instant wallAtSend) {
        tracker.sawVersion(handle, record, answerNanos, wallAtSend);
    }

    /** A read answered at {@code answerNanos} (monotonic) found no record. */
    public void sawAbsent(long answerNanos) {
        tracker.forget();
        tracker.sawAbsent(answerNanos);
    }

    /** A read failed or timed out: an absence seen before may hide a version that came and went. */
    public void readFailed() {
        tracker.lostSight();
    }

    /**
     * True when the observation so far, judged as of a read sent at {@code sentNanos} (monotonic) and {@code sentWall}
     * (wall) whose answer it already includes, proves by rule 4 that the holder stopped writing.
     */
    public boolean provesEndAsOf(long sentNanos, Instant sentWall) {
        Observation seen = tracker.current();
        if (seen instanceof Observation.Absent absent && !absent.watched()) {
            return false; // nothing read yet, or a failed read since the last absence: no observation runs
        }
        return TakeoverDecision.decide(seen, 0, sentNanos, sentWall, ttl, ttl) instanceof TakeoverDecision.Acquire;
    }
}
