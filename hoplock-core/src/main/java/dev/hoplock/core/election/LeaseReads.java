package dev.hoplock.core.election;

import dev.hoplock.core.backend.AsyncBackend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.internal.lease.LeaseTimes;
import dev.hoplock.core.internal.lease.Observation;
import dev.hoplock.core.internal.lease.RenewalForecast;
import dev.hoplock.core.internal.lease.RequestBook;
import dev.hoplock.core.internal.lease.TakeoverDecision;
import dev.hoplock.core.internal.lease.Term;
import dev.hoplock.core.internal.lease.UnknownWrites;
import dev.hoplock.core.record.LeaseRecord;
import dev.hoplock.core.record.LeaseRecordCodec;
import dev.hoplock.core.record.MalformedLeaseRecordException;
import dev.hoplock.core.time.HumanDurations;
import dev.hoplock.core.time.TimeSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The read side of the {@link LeaseLoop}: the read of the record and the transitions that follow its answer (adopt a
 * write of ours, observe another's version, report a deletion, decide a takeover). Each names the rule of the
 * {@link Elector}'s safety argument it implements. State (the owned version, the stop and release flags) is the loop's
 * and changes only through its {@link LeaseLoop#transition}; everything runs under the loop's lock.
 */
final class LeaseReads {

    private static final Logger log = LoggerFactory.getLogger(Elector.class);

    private final LeaseLoop loop;
    private final LeaseWrites writes;
    private final ElectorSettings settings;
    private final AsyncBackend backend;
    private final TimeSource time;
    private final RequestBook requests;
    private final UnknownWrites unknown;
    private final RecordWatch watch;
    private final Leadership leadership;
    private final StoreHealth health;
    private final ProblemReporter problems;
    private final LeaseTimes times;

    LeaseReads(LeaseLoop loop, LeaseWrites writes) {
        this.loop = loop;
        this.writes = writes;
        this.settings = loop.settings;
        this.backend = loop.backend;
        this.time = loop.time;
        this.requests = loop.requests;
        this.unknown = loop.unknown;
        this.watch = loop.watch;
        this.leadership = loop.leadership;
        this.health = loop.health;
        this.problems = loop.problems;
        this.times = loop.times;
    }

    /** Rule 3: a leader's read is bounded by the time its term has left. */
    void readRecord() {
        Duration timeout = settings.requestTimeout();
        Term current = leadership.term();
        if (leadership.isLeader()) {
            timeout = LeaseTimes.min(timeout, Objects.requireNonNull(current, "a leader has a term").timeLeft());
        }
        Duration bound = timeout;
        requests.send(() -> backend.read(key(), bound), bound, this::onRead);
    }

    private void onRead(@Nullable Optional<StoredObject> result, @Nullable BackendException failure) {
        if (failure != null) {
            health.failed("read", failure);
            // Rule 4: a failed read may hide a version that came and went: an absence is observed afresh.
            watch.tracker().lostSight();
            Term current = leadership.term();
            scheduleStep(current != null && current.isValid() ? times.retryDelay(current.timeLeft())
                    : settings.pollInterval());
            return;
        }
        Objects.requireNonNull(result, "a read that did not fail has a result");
        health.answered();
        if (result.isEmpty()) {
            dropReleaseIfNotOurs();
            leadership.end(LossCause.DELETED, "the lease record was deleted from " + backend.describe());
            Observation.Present before = watch.tracker().present();
            watch.forget();
            if (watch.tracker().sawAbsent(time.nanoTime())) {
                reportDeletion(before);
            }
            decideTakeover();
            return;
        }
        StoredObject object = result.get();
        LeaseRecord record = null;
        String corruption = null;
        try {
            record = LeaseRecordCodec.decode(object.content());
        } catch (MalformedLeaseRecordException e) {
            corruption = e.getMessage();
        }
        UnknownWrites.Write mine = record == null ? null : unknown.provablyOurs(record);
        if (mine != null) {
            writes.adopt(object.handle(), mine);
            return;
        }
        if (record == null || !record.owner().equals(owner())) {
            // Rule 5: another writer's version is current, so no write of unknown outcome is: a swap of ours named an
            // older handle and can never land now, and a create of ours can land only after someone deletes this
            // version, when its holder may still lead. Neither may be adopted later.
            unknown.otherWriterSeen();
        }
        dropReleaseIfNotOurs();
        leadership.end(LossCause.TAKEN_OVER, "the lease record was changed by "
                + (record == null ? "an unknown writer" : ProblemMessages.describeOwner(record.owner())));
        watch.observe(object.handle(), record, corruption);
        decideTakeover();
    }

    /** Rules 4 and 6: acquire the version observed, or look again; the decision is {@link TakeoverDecision}'s. */
    private void decideTakeover() {
        if (!campaignAllowed()) {
            scheduleStep(settings.pollInterval());
            return;
        }
        TakeoverDecision.Outcome outcome = TakeoverDecision.decide(watch.tracker().current(), watch.highestGeneration(),
                time.nanoTime(), time.wallNow(), settings);
        if (outcome instanceof TakeoverDecision.Acquire take) {
            if (take.reason() == TakeoverDecision.Why.CORRUPT_AND_UNCHANGED) {
                log.warn("hoplock: taking over the corrupt record of '{}' after it stayed unchanged for {}", key(),
                        HumanDurations.format(settings.ttl()));
            }
            writes.acquire(take.expected(), take.generation());
        } else {
            Duration wait = ((TakeoverDecision.Wait) outcome).delay();
            scheduleStep(RenewalForecast.nextRead(wait, watch.tracker().current(), time.wallNow(), settings.ttl(),
                    settings.renewInterval(), settings.pollInterval()));
        }
    }

    /**
     * Rule 4: a read found the key absent after it was seen present ({@link DeletedRecordRule}): reported when the
     * version seen last was held by another owner, since that holder may still lead. The absence after a release or
     * after this process's own record disappears is observed as well, without a report.
     */
    private void reportDeletion(Observation.@Nullable Present before) {
        LeaseRecord last = before == null ? null : before.record();
        if (before == null || (last != null && (last.isReleased() || last.owner().equals(owner())))) {
            return;
        }
        String heldBy = last == null ? "a corrupt record"
                : ProblemMessages.describeOwner(last.owner()) + " at generation " + last.generation();
        problems.report(ElectionEvent.ProblemKind.RECORD_DELETED, "deleted",
                ProblemMessages.recordDeleted(key(), backend.describe(), heldBy, settings.ttl()));
    }

    private String key() {
        return loop.key();
    }

    private String owner() {
        return loop.owner();
    }

    private boolean campaignAllowed() {
        return loop.campaignAllowed();
    }

    private void scheduleStep(Duration delay) {
        loop.scheduleStep(delay);
    }

    private void dropReleaseIfNotOurs() {
        loop.dropReleaseIfNotOurs();
    }
}
