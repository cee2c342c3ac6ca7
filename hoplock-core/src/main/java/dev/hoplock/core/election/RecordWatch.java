package dev.hoplock.core.election;

import dev.hoplock.core.Holder;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.internal.lease.Observation;
import dev.hoplock.core.internal.lease.ObservationTracker;
import dev.hoplock.core.record.LeaseRecord;
import dev.hoplock.core.time.TimeSource;
import org.jspecify.annotations.Nullable;

import java.time.Instant;
import java.util.function.Supplier;

/**
 * What the elector learns from every version of the record it reads or writes: the observation for rule 4
 * ({@link ObservationTracker}), the highest generation seen for rule 6, the holder, and the problems a record can show
 * (corrupt, at the largest generation, a generation that went down, an expiry too far ahead: clock skew).
 *
 * <p>Guarantees: {@link #highestGeneration()} never decreases; each problem is reported once per cause through the
 * {@link ProblemReporter} and cleared when a record no longer shows it; a change of holder is published once. Not
 * thread-safe: used under the elector's lock.
 */
final class RecordWatch {

    private final ElectorSettings settings;
    private final TimeSource time;
    private final Supplier<String> store;
    private final ProblemReporter problems;
    private final Leadership leadership;
    private final ObservationTracker tracker;
    private final long ttlNanos;
    private long highestGeneration;

    RecordWatch(ElectorSettings settings, TimeSource time, Supplier<String> store, ProblemReporter problems,
                Leadership leadership) {
        this.settings = settings;
        this.time = time;
        this.store = store;
        this.problems = problems;
        this.leadership = leadership;
        this.tracker = new ObservationTracker(settings.ttl());
        this.ttlNanos = settings.ttl().toNanos();
    }

    /** The observation of the key (rule 4). */
    ObservationTracker tracker() {
        return tracker;
    }

    /** Rule 6: the highest generation this elector has seen or written for the key (0 if none). */
    long highestGeneration() {
        return highestGeneration;
    }

    /** Rule 6: this elector wrote (or adopted) {@code generation}. */
    void raise(long generation) {
        highestGeneration = Math.max(highestGeneration, generation);
    }

    /** No version is known to be current any more: a read found none, or our own delete removed ours. */
    void forget() {
        tracker.forget();
        leadership.setHolder(null);
    }

    /**
     * Records the version {@code handle} the store holds now ({@code record} null when corrupt, with the reason in
     * {@code corruption}) and publishes a change of holder. A version already seen changes nothing.
     */
    void observe(Handle handle, @Nullable LeaseRecord record, @Nullable String corruption) {
        Observation.Present previous = tracker.present();
        if (!tracker.sawVersion(handle, record, time.nanoTime(), time.wallNow())) {
            return;
        }
        problems.clear(ElectionEvent.ProblemKind.RECORD_DELETED);
        if (record == null) {
            problems.reportError(ElectionEvent.ProblemKind.CORRUPT_RECORD, "corrupt",
                    ProblemMessages.corruptRecord(settings.key(), store.get(), String.valueOf(corruption),
                            settings.ttl()), null);
            leadership.setHolder(new Holder("", highestGeneration, LeaseRecord.ZERO_TIME));
            return;
        }
        problems.clear(ElectionEvent.ProblemKind.CORRUPT_RECORD, "corrupt");
        if (record.generation() < highestGeneration) {
            problems.report(ElectionEvent.ProblemKind.GENERATION_REGRESSED, "below by " + record.owner(),
                    ProblemMessages.generationRegressed(settings.key(), highestGeneration, record.generation()));
        } else {
            problems.clear(ElectionEvent.ProblemKind.GENERATION_REGRESSED);
        }
        highestGeneration = Math.max(highestGeneration, record.generation());
        if (record.generation() == Long.MAX_VALUE
                && (previous == null || previous.record() == null
                || previous.record().generation() != Long.MAX_VALUE)) {
            problems.reportError(ElectionEvent.ProblemKind.CORRUPT_RECORD, "max generation",
                    ProblemMessages.maxGeneration(settings.key(), store.get()), null);
        }
        Instant now = time.wallNow();
        String skewCause = "skew " + record.owner() + " " + record.generation();
        if (record.expiresAt().isAfter(now.plusNanos(2 * ttlNanos))) {
            // Once per writer and generation (a term), not at every renewal: the cause keeps no instant or duration.
            problems.report(ElectionEvent.ProblemKind.CLOCK_SKEW, skewCause, ProblemMessages.clockSkew(settings.key(),
                    record.owner(), record.generation(), record.expiresAt(), now, settings.ttl()));
        } else {
            problems.clear(ElectionEvent.ProblemKind.CLOCK_SKEW, skewCause);
        }
        leadership.setHolder(record.isReleased() ? null
                : new Holder(record.owner(), record.generation(), record.expiresAt()));
    }
}
