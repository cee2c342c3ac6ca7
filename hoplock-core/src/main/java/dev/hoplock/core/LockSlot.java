package dev.hoplock.core;

import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.core.lock.AcquireResult;
import dev.hoplock.core.lock.LockEvent;
import dev.hoplock.core.lock.LockLossCause;
import dev.hoplock.core.lock.ReleaseOutcome;
import dev.hoplock.core.record.LeaseRecord;
import dev.hoplock.core.record.LeaseRecordCodec;
import dev.hoplock.core.record.MalformedLeaseRecordException;
import dev.hoplock.core.time.HumanDurations;
import dev.hoplock.core.time.Scheduler;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The state and protocol of one lock name in one {@link NamedLocks}: what this process has observed of the name's
 * record and the acquisition it holds. The safety rules are the elector's, through the same types:
 * <ul>
 *   <li>rules 1 and 2 (validity anchored before the write, self-fencing): {@link Term}, begun and extended from the
 *       {@code t0} taken before each write, ended by a timer at its deadline and checked before every answer;</li>
 *   <li>rule 3 (bounded requests, late answers ignored): {@link RequestBook}, each request bounded by the request
 *       timeout and, for a renewal, by the time left;</li>
 *   <li>rule 4 (takeover only after local observation) and rule 6 (fencing): {@link ObservationTracker} and
 *       {@link TakeoverDecision}, with the observation lasting at least the TTL asked for and at least the validity
 *       the record showed when first seen (callers of one name may ask for different TTLs);</li>
 *   <li>rule 5 (unknown outcomes): {@link UnknownWrites}; a write without an answer is answered
 *       {@link AcquireResult.Unavailable}, never "acquired".</li>
 * </ul>
 * A release writes an expired, ownerless record at the same generation (never a delete), so fencing tokens keep
 * rising. Operations run one at a time in call order (a queue of futures); all state is guarded by this object.
 */
final class LockSlot {

    private static final int MAX_REMEMBERED_TTLS = UnknownWrites.MAX_REMEMBERED * 2;

    private final NamedLocks locks;
    private final String name;
    private final String key;
    private final RequestBook requests;

    // ---- guarded by this ----
    private @Nullable ObservationTracker tracker;
    private final UnknownWrites unknown = new UnknownWrites();
    /** The TTL of each recent write of ours, by nonce: an adopted write's validity counts from its t0 for its TTL. */
    private final Map<String, Duration> writtenTtls = new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Duration> eldest) {
            return size() > MAX_REMEMBERED_TTLS;
        }
    };
    private long highestGeneration;
    private long lastHoldGeneration;
    /** Rule 2 for a version held by another owner: the validity it showed when first seen (wall clock), in nanos. */
    private long firstSightValidityNanos;
    private @Nullable Owned owned;
    private @Nullable LockHold hold;
    private Scheduler.@Nullable Cancellable deadlineTimer;
    private Scheduler.@Nullable Cancellable renewTimer;
    private CompletableFuture<?> tail = CompletableFuture.completedFuture(null);

    LockSlot(NamedLocks locks, String name, String key) {
        this.locks = locks;
        this.name = name;
        this.key = key;
        this.requests = new RequestBook(this, locks.timers(), locks::describeStore, this::checkDeadline,
                locks::guard);
    }

    String name() {
        return name;
    }

    NamedLocks locks() {
        return locks;
    }

    /** The acquisition held now (valid by the local clocks), or null. */
    synchronized @Nullable LockHold validHold() {
        return hold != null && hold.isHeld() ? hold : null;
    }

    // ------------------------------------------------------------------ queue

    /** Runs {@code op} after every operation queued before it; its future completes with the op's answer. */
    private <T> CompletableFuture<T> enqueue(Supplier<CompletableFuture<T>> op) {
        synchronized (this) {
            CompletableFuture<T> result = new CompletableFuture<>();
            CompletableFuture<?> previous = tail;
            tail = result.handle((value, error) -> null);
            previous.whenComplete((ignored, error) -> {
                synchronized (this) {
                    CompletableFuture<T> stage;
                    try {
                        stage = op.get();
                    } catch (RuntimeException e) {
                        stage = CompletableFuture.failedFuture(e);
                    }
                    stage.whenComplete((value, failure) -> {
                        if (failure != null) {
                            result.completeExceptionally(failure);
                        } else {
                            result.complete(value);
                        }
                    });
                }
            });
            return result;
        }
    }

    // ------------------------------------------------------------------ acquire

    /** One attempt: extend the acquisition held, or read and take the lock if rule 4 allows. */
    CompletableFuture<AcquireResult> tryAcquire(Duration ttl) {
        return enqueue(() -> locks.verified().handle((ok, error) -> error).thenCompose(error -> {
            synchronized (this) {
                if (error != null) {
                    AcquireResult refused = new AcquireResult.Unavailable(name, asBackendException(error));
                    locks.publish(new LockEvent.Refused(name, 0, locks.time().wallNow(), refused));
                    return CompletableFuture.completedFuture(refused);
                }
                return attempt(ttl);
            }
        }));
    }

    private BackendException asBackendException(Throwable error) {
        Throwable cause = error instanceof java.util.concurrent.CompletionException && error.getCause() != null
                ? error.getCause() : error;
        if (cause instanceof BackendException backendException) {
            return backendException;
        }
        return new BackendException(BackendException.Kind.TRANSIENT, "could not verify " + locks.describeStore()
                + " before taking the lock '" + name + "': " + cause, cause);
    }

    /** One attempt on a verified store (rule 0). */
    private CompletableFuture<AcquireResult> attempt(Duration ttl) {
        {
            CompletableFuture<AcquireResult> out = new CompletableFuture<>();
            checkDeadline();
            LockHold current = hold;
            if (current != null && owned != null) {
                renew(current, ttl, false, out);
            } else {
                read(ttl, true, out);
            }
            return out.whenComplete((answer, error) -> {
                if (answer != null && !answer.acquired()) {
                    locks.publish(new LockEvent.Refused(name, tokenOf(answer), locks.time().wallNow(), answer));
                }
            });
        }
    }

    private static long tokenOf(AcquireResult answer) {
        return answer instanceof AcquireResult.HeldByAnother held ? held.token() : 0;
    }

    private void read(Duration ttl, boolean mayWrite, CompletableFuture<AcquireResult> out) {
        Duration timeout = locks.requestTimeout();
        requests.send(() -> locks.backend().read(key, timeout), timeout,
                (Optional<StoredObject> result, @Nullable BackendException failure) -> {
                    if (failure != null) {
                        tracker(ttl).lostSight();
                        out.complete(new AcquireResult.Unavailable(name, failure));
                        return;
                    }
                    onRead(ttl, mayWrite, result, out);
                });
    }

    private void onRead(Duration ttl, boolean mayWrite, Optional<StoredObject> result,
                        CompletableFuture<AcquireResult> out) {
        ObservationTracker seen = tracker(ttl);
        if (result.isEmpty()) {
            seen.forget();
            seen.sawAbsent(locks.time().nanoTime());
            if (owned != null) {
                // Our version is gone (deleted outside hoplock): whatever we held is no longer in the store.
                owned = null;
            }
            decide(ttl, mayWrite, out);
            return;
        }
        StoredObject object = result.get();
        LeaseRecord record = null;
        try {
            record = LeaseRecordCodec.decode(object.content());
        } catch (MalformedLeaseRecordException e) {
            locks.warnCorrupt(name, e.getMessage());
        }
        UnknownWrites.Write mine = record == null ? null : unknown.provablyOurs(record);
        if (mine != null) {
            adoptFound(object.handle(), mine, ttl, mayWrite, out);
            return;
        }
        if (record == null || !record.owner().equals(locks.owner())) {
            // Rule 5: another writer's version is current; no write of unknown outcome may be adopted any more.
            unknown.otherWriterSeen();
        }
        observe(object.handle(), record);
        if (owned != null && owned.handle().equals(object.handle()) && mayWrite) {
            // The current version is the one this process wrote, and its acquisition has ended (no hold): nobody
            // else can hold it, so take it over at once, with a new fencing token.
            write(object.handle(), TakeoverDecision.nextGeneration(highestGeneration), ttl, out);
            return;
        }
        decide(ttl, mayWrite, out);
    }

    /** Rule 4 (and 6), with the observation lasting the longer of the TTL and the validity shown at first sight. */
    private void decide(Duration ttl, boolean mayWrite, CompletableFuture<AcquireResult> out) {
        ObservationTracker seen = tracker(ttl);
        Observation observation = seen.current();
        long ttlNanos = ttl.toNanos();
        Duration observeFor = ttl;
        if (observation instanceof Observation.Absent absent && absent.watched()) {
            observation = new Observation.Absent(true, absent.absentSinceNanos(),
                    Math.max(absent.observeNanos(), ttlNanos), absent.lastExpiresAt());
        } else if (observation instanceof Observation.Present) {
            observeFor = Duration.ofNanos(Math.max(ttlNanos, firstSightValidityNanos));
        }
        TakeoverDecision.Outcome outcome = locks.takeoverRule().decide(observation, highestGeneration,
                locks.time().nanoTime(), locks.time().wallNow(), observeFor, locks.pollInterval());
        if (outcome instanceof TakeoverDecision.Acquire take && mayWrite) {
            write(take.expected(), take.generation(), ttl, out);
            return;
        }
        Duration retryAfter = outcome instanceof TakeoverDecision.Wait wait ? wait.delay() : Duration.ZERO;
        out.complete(heldByAnother(retryAfter));
    }

    private AcquireResult.HeldByAnother heldByAnother(Duration retryAfter) {
        Observation.Present present = tracker == null ? null : tracker.present();
        if (present != null && present.record() != null) {
            LeaseRecord record = present.record();
            return new AcquireResult.HeldByAnother(name, record.owner(), record.expiresAt(), record.generation(),
                    retryAfter);
        }
        return new AcquireResult.HeldByAnother(name, "", null, highestGeneration, retryAfter);
    }

    /** Writes a new acquisition at {@code generation}, conditional on {@code expected} (NONE: create). */
    private void write(Handle expected, long generation, Duration ttl, CompletableFuture<AcquireResult> out) {
        if (generation <= 0) {
            out.complete(heldByAnother(locks.pollInterval()));
            return;
        }
        long t0 = locks.time().nanoTime();
        LeaseRecord record = new LeaseRecord(generation, locks.time().wallNow().plus(ttl), locks.owner(), nonce(ttl));
        Duration timeout = min(locks.requestTimeout(), ttl.minus(locks.safetyMargin(ttl)));
        byte[] bytes = LeaseRecordCodec.encode(record);
        requests.send(() -> locks.backend().write(key, expected, bytes, timeout), timeout,
                (WriteResult result, @Nullable BackendException failure) -> {
                    if (failure != null) {
                        unknown.remember(record, t0);
                        out.complete(new AcquireResult.Unavailable(name, failure));
                        return;
                    }
                    if (result instanceof WriteResult.Written written) {
                        unknown.settled();
                        owned = new Owned(written.handle(), record, t0);
                        observe(written.handle(), record);
                        beginHold(record, t0, ttl, out);
                        return;
                    }
                    // Lost the race (or the refusal hides our own first attempt): read once more to name the holder,
                    // or to adopt our write if it provably landed.
                    unknown.refused(owned, record, t0);
                    owned = null;
                    read(ttl, false, out);
                });
    }

    private void beginHold(LeaseRecord record, long t0, Duration ttl, CompletableFuture<AcquireResult> out) {
        Term term = newTerm(record, t0, ttl);
        if (!term.isValid()) {
            // The answer came after the validity it would give: it is ours in the store, but not usable now. The next
            // attempt takes our version over at once (owned), with a new token.
            out.complete(new AcquireResult.Unavailable(name, new BackendException(BackendException.Kind.TRANSIENT,
                    "the store's answer for the lock '" + name + "' came after its validity ("
                            + HumanDurations.format(ttl) + " minus the safety margin) had passed; try again")));
            return;
        }
        lastHoldGeneration = record.generation();
        LockHold started = new LockHold(this, term, record.generation(), ttl, t0);
        hold = started;
        armDeadline(started);
        locks.publish(new LockEvent.Acquired(name, record.generation(), locks.time().wallNow(), record.expiresAt()));
        out.complete(new AcquireResult.Acquired(started, false));
    }

    private Term newTerm(LeaseRecord record, long t0, Duration ttl) {
        long margin = locks.safetyMargin(ttl).toNanos();
        long deadline = t0 + ttl.toNanos() - margin;
        long wallDeadline = record.expiresAt().minusNanos(margin).toEpochMilli();
        Lease lease = new Lease(key, locks.owner(), record.generation(), record.expiresAt());
        return new Term(locks.time(), lease, deadline, wallDeadline);
    }

    /** A read found a write of ours whose outcome was unknown (rule 5). */
    private void adoptFound(Handle handle, UnknownWrites.Write mine, Duration ttl, boolean mayWrite,
                            CompletableFuture<AcquireResult> out) {
        unknown.settled();
        LeaseRecord record = mine.record();
        owned = new Owned(handle, record, mine.t0());
        observe(handle, record);
        Duration writtenTtl = writtenTtls.getOrDefault(record.nonce(), ttl);
        LockHold current = hold;
        if (current != null && current.isHeld() && current.token() == record.generation()) {
            extendHold(current, record, mine.t0(), writtenTtl);
            out.complete(new AcquireResult.Acquired(current, true));
        } else if (current == null && record.generation() > lastHoldGeneration) {
            beginHold(record, mine.t0(), writtenTtl, out);
        } else if (mayWrite) {
            // A late renewal of an acquisition that has ended: take our own version over with a new token.
            write(handle, TakeoverDecision.nextGeneration(highestGeneration), ttl, out);
        } else {
            out.complete(new AcquireResult.Unavailable(name, new BackendException(BackendException.Kind.TRANSIENT,
                    "an earlier write of this process to the lock '" + name + "' landed late; try again")));
        }
    }

    private void observe(Handle handle, @Nullable LeaseRecord record) {
        ObservationTracker seen = tracker == null ? tracker(Duration.ofNanos(1)) : tracker;
        Instant wallNow = locks.time().wallNow();
        if (seen.sawVersion(handle, record, locks.time().nanoTime(), wallNow)) {
            firstSightValidityNanos = record == null ? 0 : TakeoverDecision.nanosUntil(wallNow, record.expiresAt());
            if (record != null) {
                if (record.generation() < highestGeneration) {
                    locks.warnRegressed(name, highestGeneration, record.generation());
                }
                highestGeneration = Math.max(highestGeneration, record.generation());
            }
        }
    }

    private ObservationTracker tracker(Duration ttl) {
        if (tracker == null) {
            tracker = new ObservationTracker(ttl);
        }
        return tracker;
    }

    // ------------------------------------------------------------------ renew and keep-alive

    /**
     * Extends {@code current} for {@code ttl}; {@code out} completes once the renewal (and any read it needs) is done.
     * {@code keepAlive}: sent by the keep-alive, which retries a renewal without an answer until the deadline.
     */
    private void renew(LockHold current, Duration ttl, boolean keepAlive, CompletableFuture<AcquireResult> out) {
        Owned mine = owned;
        if (mine == null || hold != current || !current.isHeld()) {
            if (keepAlive) {
                out.complete(new AcquireResult.Unavailable(name, new BackendException(BackendException.Kind.TRANSIENT,
                        "the lock '" + name + "' is no longer held")));
            } else {
                read(ttl, true, out);
            }
            return;
        }
        long t0 = locks.time().nanoTime();
        LeaseRecord record = new LeaseRecord(current.token(), locks.time().wallNow().plus(ttl), locks.owner(),
                nonce(ttl));
        Duration timeout = min(locks.requestTimeout(), current.timeLeft());
        byte[] bytes = LeaseRecordCodec.encode(record);
        requests.send(() -> locks.backend().write(key, mine.handle(), bytes, timeout), timeout,
                (WriteResult result, @Nullable BackendException failure) -> {
                    if (failure != null) {
                        unknown.remember(record, t0);
                        if (keepAlive && hold == current && current.keepAliveMargin() != null) {
                            retryRenewal(current);
                        }
                        out.complete(new AcquireResult.Unavailable(name, failure));
                        return;
                    }
                    if (result instanceof WriteResult.Written written) {
                        unknown.settled();
                        owned = new Owned(written.handle(), record, t0);
                        observe(written.handle(), record);
                        extendHold(current, record, t0, ttl);
                        out.complete(new AcquireResult.Acquired(current, true));
                        return;
                    }
                    boolean earlierUnknown = !unknown.isEmpty();
                    unknown.refused(owned, record, t0);
                    owned = null;
                    if (!earlierUnknown) {
                        endHold(current, LockLossCause.TAKEN_OVER, "a renewal was refused by "
                                + locks.describeStore() + ": the record changed or is gone");
                    }
                    // Read to adopt the version if it is provably ours, or to see who holds it now.
                    CompletableFuture<AcquireResult> checked = new CompletableFuture<>();
                    checked.whenComplete((answer, error) -> {
                        synchronized (this) {
                            if (hold == current && !(answer instanceof AcquireResult.Acquired)) {
                                endHold(current, LockLossCause.TAKEN_OVER, "a renewal was refused by "
                                        + locks.describeStore() + " and the record is not ours");
                            }
                        }
                        if (error != null) {
                            out.completeExceptionally(error);
                        } else {
                            out.complete(answer);
                        }
                    });
                    read(ttl, false, checked);
                });
    }

    private void extendHold(LockHold current, LeaseRecord record, long t0, Duration ttl) {
        long margin = locks.safetyMargin(ttl).toNanos();
        current.term().extend(new Lease(key, locks.owner(), record.generation(), record.expiresAt()),
                t0 + ttl.toNanos() - margin, record.expiresAt().minusNanos(margin).toEpochMilli());
        current.renewed(ttl, t0);
        Duration keepAliveMargin = current.keepAliveMargin();
        Duration safety = locks.safetyMargin(ttl);
        if (keepAliveMargin != null && (keepAliveMargin.compareTo(ttl) >= 0 || keepAliveMargin.compareTo(safety) <= 0)) {
            // Extended with a TTL the margin no longer fits: renew halfway between the safety margin and the expiry.
            current.keepAliveMargin(safety.plus(ttl).dividedBy(2));
        }
        armDeadline(current);
        if (current.keepAliveMargin() != null) {
            scheduleRenewal(current);
        }
        locks.publish(new LockEvent.Extended(name, record.generation(), locks.time().wallNow(), record.expiresAt()));
    }

    synchronized void keepAlive(LockHold current, Duration margin) {
        checkDeadline();
        if (hold != current || !current.isHeld()) {
            throw new IllegalStateException("keepAlive needs a held lock, but the lock '" + name + "' (token "
                    + current.token() + ") is released, lost or expired: acquire it first");
        }
        Duration safety = locks.safetyMargin(current.ttl());
        if (margin.compareTo(current.ttl()) >= 0 || margin.compareTo(safety) <= 0) {
            throw new IllegalArgumentException("keep-alive margin " + HumanDurations.format(margin) + " for the lock '"
                    + name + "' must be below its TTL (" + HumanDurations.format(current.ttl())
                    + ") and above its safety margin (" + HumanDurations.format(safety) + "): a renewal must be sent"
                    + " before the lock stops being usable; for example use a third of the TTL");
        }
        current.keepAliveMargin(margin);
        scheduleRenewal(current);
    }

    synchronized void stopKeepAlive(LockHold current) {
        if (hold == current) {
            current.keepAliveMargin(null);
            cancel(renewTimer);
            renewTimer = null;
        } else {
            current.keepAliveMargin(null);
        }
    }

    private void scheduleRenewal(LockHold current) {
        Duration margin = current.keepAliveMargin();
        if (margin == null) {
            return;
        }
        long due = current.t0() + current.ttl().toNanos() - margin.toNanos();
        schedulerRenewalIn(current, Duration.ofNanos(Math.max(0, due - locks.time().nanoTime())));
    }

    /** A renewal failed without an answer: retry after a poll, but at the latest halfway to the deadline. */
    private void retryRenewal(LockHold current) {
        Duration half = current.timeLeft().dividedBy(2);
        schedulerRenewalIn(current, max(Duration.ofMillis(10), min(locks.pollInterval(), half)));
    }

    private void schedulerRenewalIn(LockHold current, Duration delay) {
        cancel(renewTimer);
        renewTimer = locks.timers().schedule(() -> enqueue(() -> {
            CompletableFuture<AcquireResult> done = new CompletableFuture<>();
            synchronized (this) {
                checkDeadline();
                if (hold == current && current.keepAliveMargin() != null && current.isHeld()) {
                    renew(current, current.ttl(), true, done);
                } else {
                    done.complete(null);
                }
            }
            return done;
        }), delay);
    }

    // ------------------------------------------------------------------ deadline and loss

    private void armDeadline(LockHold current) {
        cancel(deadlineTimer);
        // At least a millisecond: a scheduler that rounds a delay down must not make this a busy loop.
        Duration left = max(current.timeLeft(), Duration.ofMillis(1));
        deadlineTimer = locks.timers().schedule(() -> {
            synchronized (this) {
                if (hold != current) {
                    return;
                }
                if (current.isHeld()) {
                    armDeadline(current);
                } else {
                    checkDeadline();
                }
            }
        }, left);
    }

    /** Rule 2: an acquisition past its deadline ends now, before any answer is handled. */
    private void checkDeadline() {
        LockHold current = hold;
        if (current != null && !current.isHeld() && !current.term().ended()) {
            LockLossCause cause = current.deadlineCause();
            endHold(current, cause, cause == LockLossCause.KEEP_ALIVE_FAILED
                    ? "no renewal succeeded before the local deadline"
                    : "the local deadline passed without keep-alive");
        }
    }

    private void endHold(LockHold current, LockLossCause cause, String detail) {
        if (hold == current) {
            hold = null;
            cancel(deadlineTimer);
            cancel(renewTimer);
            deadlineTimer = null;
            renewTimer = null;
        }
        if (current.term().ended()) {
            return;
        }
        current.term().end();
        LockEvent.Lost event = new LockEvent.Lost(name, current.token(), locks.time().wallNow(),
                heldFor(current), cause, detail);
        locks.publishLoss(event, current.lost(event));
    }

    private Duration heldFor(LockHold current) {
        return Duration.ofNanos(Math.max(0, locks.time().nanoTime() - current.startNanos()));
    }

    // ------------------------------------------------------------------ release

    CompletableFuture<ReleaseOutcome> release(LockHold current) {
        synchronized (this) {
            if (!current.markReleaseCalled()) {
                return CompletableFuture.completedFuture(ReleaseOutcome.ALREADY_RELEASED);
            }
        }
        return enqueue(() -> {
            CompletableFuture<ReleaseOutcome> out = new CompletableFuture<>();
            checkDeadline();
            boolean wasHeld = hold == current && current.isHeld();
            if (hold == current) {
                hold = null;
                cancel(deadlineTimer);
                cancel(renewTimer);
                deadlineTimer = null;
                renewTimer = null;
            }
            current.keepAliveMargin(null);
            current.term().end();
            Owned mine = owned;
            if (mine == null || mine.record().generation() != current.token()) {
                finishRelease(current, ReleaseOutcome.NOT_HELD, out);
                return out;
            }
            LeaseRecord released = LeaseRecord.released(current.token(), OwnerIds.randomHex(8));
            byte[] bytes = LeaseRecordCodec.encode(released);
            Duration timeout = locks.requestTimeout();
            requests.send(() -> locks.backend().write(key, mine.handle(), bytes, timeout), timeout,
                    (WriteResult result, @Nullable BackendException failure) -> {
                        if (failure != null) {
                            // Never remembered as a write of ours to adopt: a released record is nobody's.
                            finishRelease(current, wasHeld ? ReleaseOutcome.UNKNOWN : ReleaseOutcome.NOT_HELD, out);
                            return;
                        }
                        owned = null;
                        if (result instanceof WriteResult.Written written) {
                            unknown.settled();
                            observe(written.handle(), released);
                            finishRelease(current, wasHeld ? ReleaseOutcome.RELEASED : ReleaseOutcome.NOT_HELD, out);
                        } else {
                            finishRelease(current, ReleaseOutcome.NOT_HELD, out);
                        }
                    });
            return out;
        });
    }

    private void finishRelease(LockHold current, ReleaseOutcome outcome, CompletableFuture<ReleaseOutcome> out) {
        locks.publish(new LockEvent.Released(name, current.token(), locks.time().wallNow(), heldFor(current), outcome));
        out.complete(outcome);
    }

    // ------------------------------------------------------------------ helpers

    private String nonce(Duration ttl) {
        String nonce = OwnerIds.randomHex(8);
        writtenTtls.put(nonce, ttl);
        return nonce;
    }

    private static void cancel(Scheduler.@Nullable Cancellable cancellable) {
        if (cancellable != null) {
            cancellable.cancel();
        }
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }
}
