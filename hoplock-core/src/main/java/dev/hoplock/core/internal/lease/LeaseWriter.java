package dev.hoplock.core.internal.lease;

import dev.hoplock.core.OwnerIds;
import dev.hoplock.core.backend.AsyncBackend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.core.record.LeaseRecord;
import dev.hoplock.core.record.LeaseRecordCodec;
import dev.hoplock.core.time.TimeSource;
import org.jspecify.annotations.Nullable;

import java.time.Duration;

/**
 * The one acquire write of every lease user (the {@link dev.hoplock.core.election.Elector}'s {@code LeaseWrites} and named locks'
 * {@code LockTakeover}). Implements E1 for it (validity anchored before the write: the monotonic {@code t0} is taken
 * before the record is built and sent, and the record says {@code expires_at = wall(t0) + ttl}) and E5's bookkeeping
 * (a write without an answer is remembered in {@link UnknownWrites} with its {@code t0} and TTL; a written one settles
 * them); E3 bounds the request ({@link RequestBook}). Rule texts: {@link dev.hoplock.core.election.Elector}'s Javadoc.
 *
 * <p>Guarantees: exactly one of the {@link Answer}'s methods runs, once, under the owner's lock, after the
 * {@link UnknownWrites} were updated; every write carries a fresh nonce (every write changes the bytes, the ETag is
 * their hash, and E5 recognises its own writes by it). What a written or refused write means for a term or a hold is
 * the caller's. Not thread-safe: used under its owner's lock, as its {@link RequestBook}.
 */
public final class LeaseWriter {

    /** What became of one write. */
    public interface Answer {
        /** The store took the write: {@code handle} is the new version of {@code record}, written after {@code t0}. */
        void written(Handle handle, LeaseRecord record, long t0);

        /**
         * The store refused it (lost the race, or the version expected is gone); it may hide a write of ours (E5).
         * {@code refusal} is null only when a backend broke its contract and answered null; it counts as refused.
         */
        void refused(WriteResult.@Nullable Refusal refusal, LeaseRecord record, long t0);

        /** No answer: the write may have happened; it is already remembered as a write of unknown outcome (E5). */
        void unanswered(BackendException failure);
    }

    private final AsyncBackend backend;
    private final TimeSource time;
    private final RequestBook requests;
    private final UnknownWrites unknown;
    private final String key;
    private final String owner;

    public LeaseWriter(AsyncBackend backend, TimeSource time, RequestBook requests, UnknownWrites unknown,
                String key, String owner) {
        this.backend = backend;
        this.time = time;
        this.requests = requests;
        this.unknown = unknown;
        this.key = key;
        this.owner = owner;
    }

    /**
     * Writes {@code generation} for {@code ttl}, conditional on {@code expected} ({@link Handle#NONE}: a create),
     * bounded by {@code timeout}; {@code t0} is taken before anything else.
     */
    public void write(Handle expected, long generation, Duration ttl, Duration timeout, Answer answer) {
        long t0 = time.nanoTime();
        LeaseRecord record = new LeaseRecord(generation, time.wallNow().plus(ttl), owner, nonce());
        byte[] bytes = LeaseRecordCodec.encode(record);
        requests.send(() -> backend.write(key, expected, bytes, timeout), timeout,
                (@Nullable WriteResult result, @Nullable BackendException failure) -> {
                    if (failure != null) {
                        // E5: no answer; the write may have happened.
                        unknown.remember(record, t0, ttl);
                        answer.unanswered(failure);
                        return;
                    }
                    if (result instanceof WriteResult.Written written) {
                        unknown.settled();
                        answer.written(written.handle(), record, t0);
                        return;
                    }
                    WriteResult.Refusal refusal =
                            result instanceof WriteResult.Refused refused ? refused.reason() : null;
                    answer.refused(refusal, record, t0);
                });
    }

    /** A fresh nonce for a write of ours: every write changes the bytes, and E5 recognises its writes by it. */
    public static String nonce() {
        return OwnerIds.randomHex(8);
    }
}
