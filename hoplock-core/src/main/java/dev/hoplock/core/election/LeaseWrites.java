package dev.hoplock.core.election;

import dev.hoplock.core.internal.lease.LeaseWriter;
import dev.hoplock.core.OwnerIds;
import dev.hoplock.core.backend.AsyncBackend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.core.internal.lease.LeaseTimes;
import dev.hoplock.core.internal.lease.Owned;
import dev.hoplock.core.internal.lease.RequestBook;
import dev.hoplock.core.internal.lease.Term;
import dev.hoplock.core.internal.lease.UnknownWrites;
import dev.hoplock.core.record.LeaseRecord;
import dev.hoplock.core.record.LeaseRecordCodec;
import dev.hoplock.core.time.TimeSource;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.Objects;

/**
 * The write side of the {@link LeaseLoop}: the transitions that write a term's record (acquire, renew), adopt a write
 * of unknown outcome, and begin or extend a term on the answer. Each names the rule of the {@link Elector}'s safety
 * argument it implements. State (the owned version, the stop and release flags) is the loop's; everything runs under
 * the loop's lock.
 */
final class LeaseWrites {

    private final LeaseLoop loop;
    private final ElectorSettings settings;
    private final AsyncBackend backend;
    private final TimeSource time;
    private final RequestBook requests;
    private final UnknownWrites unknown;
    private final RecordWatch watch;
    private final Leadership leadership;
    private final StoreHealth health;
    private final LeaseTimes times;
    private final LeaseWriter writer;
    private final long ttlNanos;

    LeaseWrites(LeaseLoop loop) {
        this.loop = loop;
        this.settings = loop.settings;
        this.backend = loop.backend;
        this.time = loop.time;
        this.requests = loop.requests;
        this.unknown = loop.unknown;
        this.watch = loop.watch;
        this.leadership = loop.leadership;
        this.health = loop.health;
        this.times = loop.times;
        this.ttlNanos = settings.ttl().toNanos();
        this.writer = new LeaseWriter(backend, time, requests, unknown, loop.key(), loop.owner());
    }

    /**
     * Rules 1 and 3: writes a new term's record, create ({@code expected} NONE) or take over the version
     * {@code expected}, through the one {@link LeaseWriter} ({@code t0} taken before the write, a write without an
     * answer remembered), the request bounded by the usable lease.
     */
    void acquire(Handle expected, long generation) {
        if (generation <= 0) {
            // Rule 6: the highest generation seen is Long.MAX_VALUE (reported by the watch): no higher fencing token.
            loop.scheduleStep(settings.pollInterval());
            return;
        }
        writer.write(expected, generation, settings.ttl(), times.acquireTimeout(), new LeaseWriter.Answer() {
            @Override
            public void written(Handle handle, LeaseRecord record, long t0) {
                health.answered();
                loop.transition(new LeaseLoop.Change.Own(new Owned(handle, record, t0, settings.ttl())));
                watch.raise(generation);
                watch.observe(handle, record, null);
                beginTerm();
            }

            @Override
            public void refused(WriteResult.@Nullable Refusal refusal, LeaseRecord record, long t0) {
                health.answered();
                // Lost the race (or our own version is gone): look again after a poll. The refusal may also hide our
                // own write (rule 5), which the next read then adopts.
                rememberRefused(record, t0);
                loop.scheduleStep(settings.pollInterval());
            }

            @Override
            public void unanswered(BackendException failure) {
                // Rule 5: no answer; the write may have happened (the writer remembered it).
                health.failed(expected.isNone() ? "create" : "take over", failure);
                loop.scheduleStep(settings.pollInterval());
            }
        });
    }

    /** Rules 1 and 3: renews the owned record, bounded by the term's time left; a refusal ends the term. */
    void renew() {
        Term current = Objects.requireNonNull(leadership.term(), "only a leader renews");
        Owned owned = Objects.requireNonNull(loop.owned(), "only the owner renews");
        long t0 = time.nanoTime();
        LeaseRecord record = new LeaseRecord(owned.record().generation(), time.wallNow().plusNanos(ttlNanos),
                loop.owner(), nonce());
        Duration timeout = LeaseTimes.min(settings.requestTimeout(), current.timeLeft());
        byte[] bytes = LeaseRecordCodec.encode(record);
        Handle expected = owned.handle();
        requests.send(() -> backend.write(loop.key(), expected, bytes, timeout), timeout, (@Nullable WriteResult result, @Nullable BackendException failure) -> {
            if (failure != null) {
                unknown.remember(record, t0, settings.ttl());
                health.failed("renew", failure);
                loop.scheduleStep(times.retryDelay(current.timeLeft()));
                return;
            }
            health.answered();
            if (result instanceof WriteResult.Written written) {
                unknown.settled();
                loop.transition(
                        new LeaseLoop.Change.Own(new Owned(written.handle(), record, t0, settings.ttl())));
                watch.observe(written.handle(), record, null);
                extendTerm(current, record, t0);
                return;
            }
            WriteResult.Refusal refusal = ((WriteResult.Refused) result).reason();
            boolean earlierUnknown = !unknown.isEmpty();
            rememberRefused(record, t0);
            if (!earlierUnknown) {
                leadership.end(refusal == WriteResult.Refusal.NOT_FOUND ? LossCause.DELETED : LossCause.TAKEN_OVER,
                        "renewal refused by " + backend.describe() + ": "
                                + (refusal == WriteResult.Refusal.NOT_FOUND ? "the record is gone" : "the record changed"));
            }
            // Rule 5: with writes of unknown outcome, the change may be ours: read and check before deciding.
            loop.scheduleStep(Duration.ZERO);
        });
    }

    /**
     * Rule 5: a write whose outcome was unknown turned out to have happened; validity counts from its t0 for its TTL
     * (the elector's one TTL, which {@link LeaseTimes} applies).
     */
    void adopt(Handle handle, UnknownWrites.Write write) {
        unknown.settled();
        loop.transition(new LeaseLoop.Change.Own(new Owned(handle, write.record(), write.t0(), write.ttl())));
        watch.raise(write.record().generation());
        watch.observe(handle, write.record(), null);
        Term current = leadership.term();
        if (current != null && current.isValid() && current.lease().generation() == write.record().generation()) {
            extendTerm(current, write.record(), write.t0());
        } else if (write.record().generation() <= leadership.lastTermGeneration()) {
            // A late renewal of a term that already ended: start a new term with a new generation.
            loop.scheduleStep(Duration.ZERO);
        } else {
            beginTerm();
        }
    }

    /** Rules 1, 2 and 7: begins a term on the owned record, unless a release comes first or it is already too late. */
    private void beginTerm() {
        if (loop.stopping()) {
            return;
        }
        if (loop.releaseRequested()) {
            // Rule 7: a write of ours answered (or was adopted) after a step-down asked for a release; the release
            // comes first (the next step carries it out), and no term begins on a record about to be released.
            loop.scheduleStep(Duration.ZERO);
            return;
        }
        Owned owned = Objects.requireNonNull(loop.owned(), "a term begins on the owned record");
        long deadline = times.deadlineNanos(owned.t0());
        long wallDeadline = times.wallDeadlineMillis(owned.record());
        if (time.nanoTime() - deadline >= 0 || time.wallMillis() >= wallDeadline) {
            // Rule 1: the write answered too late to lead on it; the record is still ours, so renew it as a new term.
            loop.scheduleStep(Duration.ZERO);
            return;
        }
        leadership.begin(loop.owned(), deadline, wallDeadline);
        loop.scheduleStep(times.untilRenewal(loop.owned().t0(), time.nanoTime()));
    }

    /** Rule 1: a renewal answered; the term's deadlines move to those of this write. */
    private void extendTerm(Term current, LeaseRecord record, long t0) {
        if (loop.stopping() || current != leadership.term() || !current.isValid()) {
            // The term ended while the write was in flight; the record is ours, so a new term starts next step.
            loop.scheduleStep(Duration.ZERO);
            return;
        }
        leadership.extend(current, record, times.deadlineNanos(t0), times.wallDeadlineMillis(record));
        loop.scheduleStep(times.untilRenewal(t0, time.nanoTime()));
    }

    /** Rule 5: a refused write may hide a version of ours (see {@link UnknownWrites#refused}). */
    private void rememberRefused(LeaseRecord refused, long t0) {
        unknown.refused(loop.owned(), refused, t0, settings.ttl());
        loop.transition(LeaseLoop.Change.DISOWN);
    }

    /** Every write changes the bytes (the ETag is their hash), and rule 5 recognises its own writes by this nonce. */
    private static String nonce() {
        return LeaseWriter.nonce();
    }
}
