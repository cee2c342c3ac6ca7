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
 *   <li>the same record version (same handle) in a read <em>sent</em> a whole {@code ttl} (on this machine's monotonic
 *       clock) after the answer of the first read that saw it, and expired by this machine's wall clock when that later
 *       read was sent: its writer wrote it before the first read answered, stopped at least the safety margin before
 *       its validity ended, and had not written again when the later read took effect;</li>
 *   <li>no record in a read sent a whole {@code ttl} after the answer of the first read that found none, with no
 *       failed read between, and the last record seen expired by this machine's wall clock (a deletion from
 *       outside).</li>
 * </ul>
 * The later read is measured from when it was sent, not when its answer arrived: an answer delivered late (a pause of
 * this process, a slow network) tells what the store held when the read took effect, which may be long before it is
 * processed. (The elector's own takeover needs no such care: it is a compare-and-swap on the lease record itself,
 * while a removal is a compare-and-swap on the registry.)
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
     * Records one read's answer: the read was sent at {@code sentNanos} (local monotonic) and {@code sentWall} (local
     * wall), its answer received at {@code answerNanos}.
     *
     * @return true once the registered term has provably ended
     */
    boolean observe(Optional<StoredObject> answer, long sentNanos, Instant sentWall, long answerNanos) {
        if (ended) {
            return true;
        }
        if (answer.isEmpty()) {
            seenHandle = null;
            if (!absentSeen) {
                absentSeen = true;
                absentSinceNanos = answerNanos;
            } else if (sentNanos - absentSinceNanos >= ttlNanos
                    && (lastExpiry == null || sentWall.isAfter(lastExpiry))) {
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
        boolean expiredHere = record == null || sentWall.isAfter(record.expiresAt());
        if (sentNanos - seenSinceNanos >= ttlNanos && expiredHere) {
            ended = true;
        }
        return ended;
    }
}
