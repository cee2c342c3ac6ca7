package dev.hoplock.core.operations;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.LeaseKeys;
import dev.hoplock.core.backend.StoreNotCapableException;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.core.internal.lease.LeaseWriter;
import dev.hoplock.core.internal.lease.Observation;
import dev.hoplock.core.internal.lease.ObservationTracker;
import dev.hoplock.core.internal.lease.TakeoverDecision;
import dev.hoplock.core.internal.lease.UnknownWrites;
import dev.hoplock.core.record.LeaseRecord;
import dev.hoplock.core.record.LeaseRecordCodec;
import dev.hoplock.core.record.MalformedLeaseRecordException;
import dev.hoplock.core.time.ExecutorScheduler;
import dev.hoplock.core.time.HumanDurations;
import dev.hoplock.core.time.Scheduler;
import dev.hoplock.core.time.TimeSource;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Frees a lease record whose holder is gone (a crashed process, a record written by a clock that runs far ahead), the
 * safe replacement for deleting a ShedLock row by hand.
 *
 * <h2>What it does</h2>
 * It reads the key, then keeps reading it (every poll interval) until the same version (same handle) has been seen
 * unchanged for a whole observation on this machine's monotonic clock, counted from the answer of the first read that
 * showed it; only then does it write the released record of the lease protocol (expired, no owner, the <em>same</em>
 * generation, a fresh nonce: what a holder's own graceful release writes, rule E6/E7 of
 * {@link dev.hoplock.core.election.Elector}), conditional on that version's handle. The next candidate takes a
 * released record at once, at a higher generation, so fencing tokens keep rising.
 *
 * <h2>Why it cannot free a live holder</h2>
 * This is the local half of rule E4 (takeover only after local observation), by the same code the elector uses: the
 * observation is kept by {@code ObservationTracker} and judged by {@code TakeoverDecision.unchangedFor}. A holder
 * renews well within its TTL, so while it lives the record changes during the observation and the release refuses,
 * naming who wrote. A holder that wrote the version observed wrote it before the first read answered, and by rule E1
 * it leads only until {@code t0 + ttl - safetyMargin} on its own monotonic clock; after a whole TTL of unchanged
 * observation it has stopped, whatever the wall clocks say. The write is conditional on the observed handle, so a
 * renewal that lands after the last read makes the store refuse it ({@link ReleaseReport.Outcome#WRITE_REFUSED}).
 * The wall-clock half of E4 (expired by this machine's clock) is not required: it is what keeps a record written by a
 * clock that runs ahead stuck, and freeing it is the point.
 *
 * <h2>How long it observes</h2>
 * The observation lasts the longer of the TTL given and the validity the record showed when first seen (rule L3 of
 * named locks, by its one computation, {@code TakeoverDecision.observationFor}: a lock may be held for longer than the
 * default TTL, and such a holder need not renew). A record whose
 * expiry lies more than 2 x TTL ahead is either written by a clock that runs ahead or held for that long; the release
 * refuses it unless told that the TTL given is the longest any holder of the key uses
 * ({@link Builder#trustTtlOverExpiry(boolean)}), and then observes for the TTL.
 *
 * <p>Guarantees: never deletes; writes at most once, only the released record at the generation observed, only
 * conditional on a version observed unchanged for the observation, and only to a store whose {@link Backend#verify()}
 * shows that it honours conditional writes (rule E0; otherwise the write would be a blind one); writes nothing for an absent, released or corrupt
 * record (a corrupt one has no generation to keep; electors take it over themselves after E4's observation), nor when a
 * read fails. Thread-safe: each {@link #release(String)} is its own run on the scheduler.
 */
public final class StuckLeaseRelease implements AutoCloseable {

    private final Backend backend;
    private final Duration ttl;
    private final Duration pollInterval;
    private final Duration requestTimeout;
    private final TimeSource time;
    private final Scheduler scheduler;
    private final @Nullable ExecutorScheduler ownScheduler;
    private final boolean trustTtlOverExpiry;
    private final boolean ttlGivenExplicitly;

    private StuckLeaseRelease(Builder builder, Duration ttl) {
        this.backend = builder.backend;
        this.ttl = ttl;
        Duration poll = builder.pollInterval != null ? builder.pollInterval : ttl.dividedBy(10);
        this.pollInterval = poll.compareTo(ttl) > 0 ? ttl : poll;
        this.requestTimeout = builder.requestTimeout;
        this.time = builder.time;
        this.trustTtlOverExpiry = builder.trustTtlOverExpiry;
        this.ttlGivenExplicitly = builder.ttlGivenExplicitly;
        if (builder.scheduler != null) {
            this.scheduler = builder.scheduler;
            this.ownScheduler = null;
        } else {
            ExecutorScheduler own = new ExecutorScheduler("hoplock-release");
            this.scheduler = own;
            this.ownScheduler = own;
        }
    }

    /** Starts a builder over {@code backend}. */
    public static Builder builder(Backend backend) {
        return new Builder(backend);
    }

    /** The TTL the observation lasts at least. */
    public Duration ttl() {
        return ttl;
    }

    /**
     * Releases {@code key} if its record stays unchanged for the observation; completes with the report (never
     * exceptionally for a store's answer or failure).
     *
     * @throws IllegalArgumentException when {@code key} is not a valid lease key
     */
    public CompletableFuture<ReleaseReport> release(String key) {
        LeaseKeys.validate(key);
        Run run = new Run(key);
        scheduler.schedule(run::first, Duration.ZERO);
        return run.out;
    }

    /** Stops the scheduler this release created (none when one was given). */
    @Override
    public void close() {
        if (ownScheduler != null) {
            ownScheduler.close();
        }
    }

    /** One read's answer: what was found and when the answer arrived. */
    private record Read(LeaseRecordView view, @Nullable StoredObject found, @Nullable LeaseRecord record,
                        long answerNanos, Instant answerWall) {
    }

    /** One release of one key; its methods run one at a time on the scheduler. */
    private final class Run {
        final String key;
        final CompletableFuture<ReleaseReport> out = new CompletableFuture<>();
        final ObservationTracker tracker = new ObservationTracker(ttl);
        @Nullable LeaseRecordView first;
        Duration observe = ttl;

        Run(String key) {
            this.key = key;
        }

        void first() {
            try {
                Read read = read();
                first = read.view();
                LeaseRecordView view = read.view();
                switch (view.state()) {
                    case ABSENT -> finish(ReleaseReport.Outcome.NOTHING_TO_RELEASE, view, Duration.ZERO, null,
                            key + ": no record, nothing to release");
                    case RELEASED -> finish(ReleaseReport.Outcome.NOTHING_TO_RELEASE, view, Duration.ZERO, null,
                            key + ": already released at generation " + view.generation() + ", nothing to release");
                    case CORRUPT -> finish(ReleaseReport.Outcome.REFUSED, view, Duration.ZERO, null,
                            Objects.requireNonNull(view.problem()));
                    case HELD, EXPIRED -> startObserving(read);
                }
            } catch (BackendException | RuntimeException e) {
                failedRead(e);
            }
        }

        private void startObserving(Read read) {
            LeaseRecordView view = read.view();
            LeaseRecord record = Objects.requireNonNull(read.record());
            if (TakeoverDecision.nextGeneration(record.generation()) == 0) {
                finish(ReleaseReport.Outcome.REFUSED, view, Duration.ZERO, null, key + ": refused, nothing written:"
                        + " its generation " + record.generation() + " is the highest a record can carry, so no"
                        + " holder can ever take this key over (there is no higher generation), released or not."
                        + " Stop every process that uses this key, then delete the record by hand in the store;"
                        + " the next holder then starts again from a low generation, so anything that checks"
                        + " fencing tokens from this key must forget the old ones first");
                return;
            }
            if (view.clockSkewSuspected() && !trustTtlOverExpiry) {
                finish(ReleaseReport.Outcome.REFUSED, view, Duration.ZERO, null, key + ": refused, nothing written:"
                        + " its expires_at " + record.expiresAt() + " lies " + HumanDurations.format(
                        Objects.requireNonNull(view.expiresIn())) + " ahead of this machine's clock, more than"
                        + " 2 x the TTL of " + HumanDurations.format(ttl) + ". Either the writer's clock runs ahead or"
                        + " a holder took it for that long (a named lock with a long TTL). " + (ttlGivenExplicitly
                        ? "If no holder of this key uses a TTL longer than " + HumanDurations.format(ttl) + ", release"
                        + " again trusting the TTL over the expiry (hoplock-cli: --trust-ttl); otherwise release with"
                        + " that holder's TTL"
                        : "The TTL of " + HumanDurations.format(ttl) + " is a default, not known to be the longest"
                        + " any holder of this key uses: find the TTL its holders use and release again with it"
                        + " (hoplock-cli: --ttl)"));
                return;
            }
            long validity = TakeoverDecision.nanosUntil(read.answerWall(), record.expiresAt());
            observe = view.clockSkewSuspected() ? ttl : TakeoverDecision.observationFor(ttl, validity);
            tracker.sawVersion(Objects.requireNonNull(read.found()).handle(), record, read.answerNanos(),
                    read.answerWall());
            next(read.answerNanos());
        }

        void observeAgain() {
            try {
                Read read = read();
                StoredObject found = read.found();
                Observation.Present seen = Objects.requireNonNull(tracker.present());
                if (found == null) {
                    refuse(read, seen, "the record disappeared while it was observed (deleted outside hoplock, or"
                            + " released by a delete); nothing was written");
                    return;
                }
                if (tracker.sawVersion(found.handle(), read.record(), read.answerNanos(), read.answerWall())) {
                    refuse(read, seen, changedText(Objects.requireNonNull(first), read.view()));
                    return;
                }
                if (TakeoverDecision.unchangedFor(seen, read.answerNanos(), observe)) {
                    write(read, seen);
                } else {
                    next(read.answerNanos());
                }
            } catch (BackendException | RuntimeException e) {
                failedRead(e);
            }
        }

        private void next(long nowNanos) {
            Observation.Present seen = Objects.requireNonNull(tracker.present());
            long left = observe.toNanos() - (nowNanos - seen.firstSeenNanos());
            Duration delay = Duration.ofNanos(Math.max(0, Math.min(left, pollInterval.toNanos())));
            scheduler.schedule(this::observeAgain, delay);
        }

        private void write(Read last, Observation.Present seen) {
            LeaseRecord observed = Objects.requireNonNull(seen.record());
            try {
                // E0: a conditional write is sent only to a store that honours it (else it would be a blind write).
                backend.verify().requireFor(false);
            } catch (StoreNotCapableException e) {
                finish(ReleaseReport.Outcome.REFUSED, last.view(), Duration.ofNanos(last.answerNanos()
                        - seen.firstSeenNanos()), null, key + ": refused, nothing written: " + e.getMessage());
                return;
            } catch (BackendException | RuntimeException e) {
                finish(ReleaseReport.Outcome.FAILED, last.view(), Duration.ofNanos(last.answerNanos()
                        - seen.firstSeenNanos()), null, key + ": the store could not be verified (" + e.getMessage()
                        + "); nothing was written");
                return;
            }
            LeaseRecord released = LeaseRecord.released(observed.generation(), LeaseWriter.nonce());
            Duration unchanged = Duration.ofNanos(last.answerNanos() - seen.firstSeenNanos());
            String observedText = key + ": observed " + describeHolder(observed) + " unchanged for "
                    + HumanDurations.format(unchanged) + " on this machine's monotonic clock (needed "
                    + HumanDurations.format(observe) + ")";
            WriteResult result;
            try {
                result = backend.write(key, seen.handle(), LeaseRecordCodec.encode(released), requestTimeout);
            } catch (BackendException | RuntimeException e) {
                finish(ReleaseReport.Outcome.FAILED, last.view(), unchanged, null, observedText + "; the write of the"
                        + " released record got no answer (" + e.getMessage() + "), so its outcome is unknown: show"
                        + " the key again");
                return;
            }
            if (result instanceof WriteResult.Written written) {
                LeaseRecordView view = LeaseInspection.view(key, released, written.handle().value(), time.wallNow(),
                        ttl);
                finish(ReleaseReport.Outcome.RELEASED, last.view(), unchanged, view, observedText + "; wrote the"
                        + " released record (no owner, expired) at generation " + released.generation()
                        + ", conditional on that version: the next holder takes generation "
                        + TakeoverDecision.nextGeneration(released.generation()) + " or higher");
                return;
            }
            Read after = afterRefusal();
            LeaseRecordView now = after == null ? last.view() : after.view();
            if (after != null && after.record() != null && landedEarlier(released, after.record())) {
                // E5: a store SDK that retries a 5xx inside one call meets our own first attempt and is refused.
                finish(ReleaseReport.Outcome.RELEASED, last.view(), unchanged, now, observedText + "; the store"
                        + " refused the conditional write (" + ((WriteResult.Refused) result).reason() + "), but the"
                        + " record now in the store is the released record we wrote (same generation and nonce): it"
                        + " landed on an earlier attempt of the same call (the store's client retried it). The next"
                        + " holder takes generation " + TakeoverDecision.nextGeneration(released.generation())
                        + " or higher");
                return;
            }
            finish(ReleaseReport.Outcome.WRITE_REFUSED, now, unchanged, null, observedText + "; the store refused"
                    + " the conditional write (" + ((WriteResult.Refused) result).reason() + "): the record changed"
                    + " after the last read, nothing was written. Now: " + now.describe());
        }

        /** A best-effort read after a refused write, to say what replaced the version observed; null if none. */
        private @Nullable Read afterRefusal() {
            try {
                return read();
            } catch (BackendException | RuntimeException e) {
                return null;
            }
        }

        /** Whether {@code found} is provably the released record we wrote: the core's own E5 comparison. */
        private static boolean landedEarlier(LeaseRecord released, LeaseRecord found) {
            UnknownWrites ours = new UnknownWrites();
            ours.remember(released, 0, Duration.ZERO);
            return ours.provablyOurs(found) != null;
        }

        private void refuse(Read read, Observation.Present seen, String why) {
            Duration unchanged = Duration.ofNanos(read.answerNanos() - seen.firstSeenNanos());
            finish(ReleaseReport.Outcome.REFUSED, read.view(), unchanged, null, key + ": refused after "
                    + HumanDurations.format(unchanged) + " of observation: " + why);
        }

        private void failedRead(Exception e) {
            LeaseRecordView last = first != null ? first : LeaseInspection.view(key, null, time.wallNow(), ttl);
            Observation.Present seen = tracker.present();
            Duration unchanged = seen == null ? Duration.ZERO : Duration.ofNanos(time.nanoTime() - seen.firstSeenNanos());
            finish(ReleaseReport.Outcome.FAILED, last, unchanged, null, key + ": a read got no answer ("
                    + e.getMessage() + "); nothing was written");
        }

        private Read read() throws BackendException {
            Optional<StoredObject> answer = backend.read(key, requestTimeout);
            long answerNanos = time.nanoTime();
            Instant answerWall = time.wallNow();
            StoredObject found = answer.orElse(null);
            LeaseRecordView view = LeaseInspection.view(key, found, answerWall, ttl);
            LeaseRecord record = null;
            if (found != null) {
                try {
                    record = LeaseRecordCodec.decode(found.content());
                } catch (MalformedLeaseRecordException e) {
                    record = null; // the view says what is wrong; a corrupt version is still a version
                }
            }
            return new Read(view, found, record, answerNanos, answerWall);
        }

        private void finish(ReleaseReport.Outcome outcome, LeaseRecordView last, Duration observed,
                            @Nullable LeaseRecordView written, String message) {
            LeaseRecordView firstView = first != null ? first : last;
            out.complete(new ReleaseReport(key, outcome, firstView, last, observed, written, message));
        }
    }

    /** Why the record observed changed, and who wrote it. */
    static String changedText(LeaseRecordView before, LeaseRecordView now) {
        if (now.state() == LeaseRecordView.State.RELEASED) {
            return "its holder released it (now generation " + now.generation() + "); nothing was written";
        }
        if (now.state() == LeaseRecordView.State.CORRUPT) {
            return "it was replaced by an object that is not a lease record; nothing was written";
        }
        if (Objects.equals(now.holder(), before.holder()) && now.generation() == before.generation()) {
            return now.holder() + " renewed it at generation " + now.generation() + " (" + now.expiryText()
                    + "): its holder is alive, nothing was written";
        }
        return now.holder() + " holds it now at generation " + now.generation() + " (" + now.expiryText()
                + "): nothing was written";
    }

    private static String describeHolder(LeaseRecord record) {
        return "the record of " + record.owner() + " at generation " + record.generation() + " (expires_at "
                + record.expiresAt() + ")";
    }

    /**
     * Configures a {@link StuckLeaseRelease}. Defaults: poll interval TTL / 10, request timeout 5 s, this machine's
     * clocks, a scheduler thread of its own, and expiries more than 2 x TTL ahead refused.
     */
    public static final class Builder {
        private final Backend backend;
        private @Nullable Duration ttl;
        private @Nullable Duration pollInterval;
        private Duration requestTimeout = Duration.ofSeconds(5);
        private TimeSource time = TimeSource.system();
        private @Nullable Scheduler scheduler;
        private boolean trustTtlOverExpiry;
        private boolean ttlGivenExplicitly = true;

        private Builder(Backend backend) {
            this.backend = Objects.requireNonNull(backend, "backend");
        }

        /**
         * The longest TTL any holder of the key uses (required): the observation lasts at least this long. Too short a
         * value is what could free a live holder that does not renew within it; when unsure, give more.
         */
        public Builder ttl(Duration ttl) {
            this.ttl = positive(ttl, "ttl");
            return this;
        }

        /** How often the key is read while observed (default TTL / 10, at most the TTL). */
        public Builder pollInterval(Duration pollInterval) {
            this.pollInterval = positive(pollInterval, "pollInterval");
            return this;
        }

        /** The bound of each read and of the write (default 5 s). */
        public Builder requestTimeout(Duration requestTimeout) {
            this.requestTimeout = positive(requestTimeout, "requestTimeout");
            return this;
        }

        /** The clocks (default this machine's); tests pass virtual time. */
        public Builder timeSource(TimeSource time) {
            this.time = Objects.requireNonNull(time, "time");
            return this;
        }

        /** The scheduler the reads run on (default a daemon thread of its own, stopped by {@link #close()}). */
        public Builder scheduler(Scheduler scheduler) {
            this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
            return this;
        }

        /**
         * True: a record whose expiry lies more than 2 x TTL ahead is taken as written by a clock that runs ahead, and
         * observed for the TTL alone. Only when the TTL given is known to be the longest any holder of the key uses
         * (default false: such a record is refused).
         */
        public Builder trustTtlOverExpiry(boolean trust) {
            this.trustTtlOverExpiry = trust;
            return this;
        }

        /**
         * False: the TTL given is a default (a setting not known to cover every holder of the key), not the operator's
         * statement of the longest TTL its holders use. A refusal then never suggests trusting it over the expiry, and
         * {@link #trustTtlOverExpiry(boolean) trusting it} is refused at {@link #build()}. Default true: a caller of
         * this builder states the TTL itself.
         */
        public Builder ttlGivenExplicitly(boolean explicit) {
            this.ttlGivenExplicitly = explicit;
            return this;
        }

        /** Builds the release. */
        public StuckLeaseRelease build() {
            if (trustTtlOverExpiry && !ttlGivenExplicitly) {
                throw new IllegalArgumentException("trusting the TTL over the expiry needs a TTL given explicitly:"
                        + " it is the promise that no holder of the key uses a longer TTL, and a default is no such"
                        + " promise");
            }
            if (ttl == null) {
                throw new IllegalStateException("StuckLeaseRelease needs the ttl: the longest TTL any holder of the key"
                        + " uses (the observation lasts at least that long); set it with ttl(Duration)");
            }
            return new StuckLeaseRelease(this, ttl);
        }

        private static Duration positive(Duration value, String name) {
            Objects.requireNonNull(value, name);
            if (value.isNegative() || value.isZero()) {
                throw new IllegalArgumentException(name + " must be positive, was " + HumanDurations.format(value));
            }
            return value;
        }
    }
}
