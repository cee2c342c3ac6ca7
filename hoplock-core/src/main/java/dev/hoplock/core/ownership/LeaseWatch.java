package dev.hoplock.core.ownership;

import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.internal.lease.ExpiryWitness;
import dev.hoplock.core.record.LeaseRecord;
import dev.hoplock.core.record.LeaseRecordCodec;
import dev.hoplock.core.record.MalformedLeaseRecordException;

import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Rule M6: judges, from this instance's reads of one member's lease record, whether that member's registered term has
 * provably ended, so that its entry may be removed.
 *
 * <p>The registered term (owner, generation) has ended when a read shows:
 * <ul>
 *   <li>the record released (no owner): its writer stopped before writing it;</li>
 *   <li>the record held by another process: that process's elector took it over only after the registered term's
 *       deadline had passed (its rule 4);</li>
 *   <li>otherwise, when the elector's own rule 4 proves from this machine's reads that the writer stopped renewing
 *       ({@link ExpiryWitness}, the same observation and decision the elector takes over by): the same version, or no
 *       record, observed unchanged for a whole {@code ttl} on this machine's monotonic clock, up to when the later
 *       read was <em>sent</em>, and expired by this machine's wall clock then.</li>
 * </ul>
 * The later read counts from when it was sent, not when its answer arrived: an answer delivered late (a pause of this
 * process, a slow network) tells what the store held when the read took effect, which may be long before it is
 * processed ({@link ExpiryWitness} says why the elector's own takeover needs no such care). A record that cannot be
 * parsed counts as held: only the unchanged-for-ttl observation ends it. Never trusts another machine's wall clock as
 * the only evidence.
 */
final class LeaseWatch {

    private final String memberId;
    private final String owner;
    private final long generation;
    private final ExpiryWitness witness;
    private boolean ended;

    LeaseWatch(Registry.Entry entry, long ttlNanos) {
        this.memberId = entry.id();
        this.owner = entry.owner();
        this.generation = entry.generation();
        this.witness = new ExpiryWitness(Duration.ofNanos(ttlNanos));
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
        witness.readFailed();
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
            witness.sawAbsent(answerNanos);
        } else {
            StoredObject object = answer.get();
            LeaseRecord record = decodeOrNull(object);
            if (record != null && (record.owner().isEmpty() || record.isReleased()
                    || !record.owner().equals(owner))) {
                ended = true;
                return true;
            }
            witness.sawVersion(object.handle(), record, answerNanos, sentWall);
        }
        ended = witness.provesEndAsOf(sentNanos, sentWall);
        return ended;
    }

    private static @Nullable LeaseRecord decodeOrNull(StoredObject object) {
        try {
            return LeaseRecordCodec.decode(object.content());
        } catch (MalformedLeaseRecordException e) {
            return null;
        }
    }
}
