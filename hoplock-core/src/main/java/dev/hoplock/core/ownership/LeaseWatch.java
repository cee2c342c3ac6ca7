package dev.hoplock.core.ownership;

import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.record.LeaseRecord;
import dev.hoplock.core.record.LeaseRecordCodec;
import dev.hoplock.core.record.MalformedLeaseRecordException;

import java.time.Instant;
import java.util.Optional;

/**
 * Rule M6: judges, from this instance's reads of one member's lease record, whether that member's registered term has
 * provably ended, by the elector's own takeover rule (its rule 4), so that its entry may be removed.
 *
 * <p>The registered term (owner, generation) has ended when a read shows:
 * <ul>
 *   <li>the record released (no owner): its writer stopped before writing it;</li>
 *   <li>the record held by another process: that process's elector took it over only after the registered term's
 *       deadline had passed;</li>
 *   <li>the same record version (same handle) for a whole {@code ttl} on this machine's monotonic clock, counted from
 *       the answer of the first read that saw it, and expired by this machine's wall clock: its writer wrote it before
 *       that read answered and stopped at least the safety margin before its validity ended;</li>
 *   <li>no record for a whole {@code ttl}, counted from the answer of the first read that found none, with no failed
 *       read since, and the last record seen expired by this machine's wall clock (a deletion from outside).</li>
 * </ul>
 * A record that cannot be parsed counts as held: only the unchanged-for-ttl observation ends it. Never trusts another
 * machine's wall clock as the only evidence.
 */
final class LeaseWatch {

    private final String memberId;
    private final String owner;
    private final long generation;
    private final long ttlNanos;
    private Handle seenHandle;
    private long seenSinceNanos;
    private Instant lastExpiry;
    private boolean absentSeen;
    private long absentSinceNanos;
    private boolean ended;

    LeaseWatch(Registry.Entry entry, long ttlNanos) {
        this.memberId = entry.id();
        this.owner = entry.owner();
        this.generation = entry.generation();
        this.ttlNanos = ttlNanos;
    }

    /** True when this watch is about exactly this registration. */
    boolean watches(Registry.Entry entry) {
        return entry.id().equals(memberId) && entry.owner().equals(owner) && entry.generation() == generation;
    }

    String memberId() {
        return memberId;
    }

    /** A read failed or timed out: an absence seen before may hide a version that came and went. */
    void readFailed() {
        absentSeen = false;
    }

    /**
     * Records one read's answer, received at {@code answerNanos} (local monotonic) and {@code wallNow} (local wall).
     *
     * @return true once the registered term has provably ended
     */
    boolean observe(Optional<StoredObject> answer, long answerNanos, Instant wallNow) {
        if (ended) {
            return true;
        }
        if (answer.isEmpty()) {
            seenHandle = null;
            if (!absentSeen) {
                absentSeen = true;
                absentSinceNanos = answerNanos;
            } else if (answerNanos - absentSinceNanos >= ttlNanos
                    && (lastExpiry == null || wallNow.isAfter(lastExpiry))) {
                ended = true;
            }
            return ended;
        }
        absentSeen = false;
        StoredObject object = answer.get();
        LeaseRecord record;
        try {
            record = LeaseRecordCodec.decode(object.content());
        } catch (MalformedLeaseRecordException e) {
            record = null;
        }
        if (record != null) {
            lastExpiry = record.expiresAt();
            if (record.owner().isEmpty() || record.isReleased()) {
                ended = true;
                return true;
            }
            if (!record.owner().equals(owner)) {
                ended = true;
                return true;
            }
        }
        if (!object.handle().equals(seenHandle)) {
            seenHandle = object.handle();
            seenSinceNanos = answerNanos;
            return false;
        }
        boolean expiredHere = record == null || wallNow.isAfter(record.expiresAt());
        if (answerNanos - seenSinceNanos >= ttlNanos && expiredHere) {
            ended = true;
        }
        return ended;
    }
}
