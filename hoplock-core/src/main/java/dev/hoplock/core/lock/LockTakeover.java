package dev.hoplock.core.lock;

import dev.hoplock.core.internal.lease.LeaseWriter;
import dev.hoplock.core.OwnerIds;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.core.internal.lease.LeaseTimes;
import dev.hoplock.core.internal.lease.Observation;
import dev.hoplock.core.internal.lease.ObservationTracker;
import dev.hoplock.core.internal.lease.Owned;
import dev.hoplock.core.internal.lease.TakeoverDecision;
import dev.hoplock.core.internal.lease.UnknownWrites;
import dev.hoplock.core.lock.AcquireResult;
import dev.hoplock.core.record.LeaseRecord;
import dev.hoplock.core.record.LeaseRecordCodec;
import dev.hoplock.core.record.MalformedLeaseRecordException;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The acquisition steps of one {@link LockSlot}: read the record, observe it, decide, write. Each step names the rule of
 * the elector's safety argument it implements:
 * <ul>
 *   <li>rule 4 (takeover only after local observation): {@link #decide} asks the {@link TakeoverDecision} (through the
 *       {@link LockTakeoverRule} seam) with an observation lasting the longer of the TTL asked for and the
 *       validity the record showed when first seen by the wall clock (callers of one name may ask for different
 *       TTLs);</li>
 *   <li>rule 5 (unknown outcomes): a write without an answer is remembered in {@link UnknownWrites} and answered
 *       {@link AcquireResult.Unavailable}; a read that finds it provably ours adopts it ({@link #adoptFound}), counting
 *       its validity from its own {@code t0} for its own TTL (kept with the write, {@link UnknownWrites.Write#ttl()};
 *       never the TTL the adopting call asks for);</li>
 *   <li>rule 6 (fencing): every new acquisition is written at a generation above every one this process saw
 *       ({@link TakeoverDecision#nextGeneration(long)}); a token that went down is reported, never reused.</li>
 * </ul>
 * Guarantees: it never answers "acquired" for a write whose answer it did not see or could not prove; it only calls
 * {@link LockHolding} to begin or extend an acquisition. Not thread-safe on its own: every method runs under the
 * slot's monitor, which guards the state kept here.
 * <p>Implements L3 (in {@code decide}) and, for named locks, E4 to E6; text in {@link dev.hoplock.core.lock}.
 */
final class LockTakeover {

    private final LockSlot slot;
    private final NamedLocks locks;

    // ---- guarded by the slot ----
    private @Nullable ObservationTracker tracker;
    /** Rule 6: the highest generation this process saw for the name. */
    private long highestGeneration;
    /** Rule 2 for a version held by another owner: the validity it showed when first seen (wall clock), in nanos. */
    private long firstSightValidityNanos;
    /** L7: the turn window of the attempt running now (zero: the default mode). */
    private Duration turn = Duration.ZERO;
    /** L7: the monotonic time the last acquisition of this process ended, when {@link #heldBefore}. */
    private long lastHoldEndNanos;
    private boolean heldBefore;
    /** L7: the version this process last yielded its turn on, or null. */
    private @Nullable Handle yieldedOn;
    /** L7 (d): when a yield of this process was last found untaken (when {@link #quiet}). */
    private long quietSinceNanos;
    private boolean quiet;
    /** L7 (d): a version written by another instance's acquisition was seen since {@link #quietSinceNanos}. */
    private boolean othersSinceQuiet;

    LockTakeover(LockSlot slot) {
        this.slot = slot;
        this.locks = slot.locks();
    }

    /**
     * One acquisition attempt of a slot that holds nothing: a write conditional on the version last seen, without a read
     * first, when what was seen of it lets this process take it now (its own record whose acquisition ended, a
     * released record, or another owner's record observed unchanged for long enough: E4 with L3, decided by the same
     * {@link TakeoverDecision} as after a read); otherwise a read as in {@link #read}. Such a write lands only if the
     * version last seen is still current when it lands, so it proves the version unchanged from its first sighting up
     * to then, as a read followed by a write does. A read comes first whenever a write of unknown outcome is pending
     * (E5 adopts it from a read), in the fair mode (L7 decides on the version it finds), and when nothing, or only an
     * absence, was seen (a create is never sent on old knowledge). A refused write means the version last seen is
     * gone: see {@link #writeOnLastSeen}.
     */
    void acquire(Duration ttl, CompletableFuture<AcquireResult> out) {
        Observation.Present present = tracker == null ? null : tracker.present();
        if (present == null || !slot.unknown.isEmpty() || !turn.isZero()) {
            read(ttl, true, out);
            return;
        }
        Owned owned = slot.owned();
        if (owned != null && owned.handle().equals(present.handle())) {
            // The version last seen is the one this process wrote, and its acquisition has ended: nobody else can
            // hold it while it is current, which the write's condition checks.
            writeOnLastSeen(present.handle(), TakeoverDecision.nextGeneration(highestGeneration), ttl, out);
            return;
        }
        Duration observeFor = TakeoverDecision.observationFor(ttl, firstSightValidityNanos);
        TakeoverDecision.Outcome outcome = locks.takeoverRule().decide(present, highestGeneration,
                locks.time().nanoTime(), locks.time().wallNow(), observeFor, locks.pollInterval());
        if (outcome instanceof TakeoverDecision.Acquire take && take.expected().equals(present.handle())) {
            writeOnLastSeen(take.expected(), take.generation(), ttl, out);
            return;
        }
        // Held by another owner as far as this process knows: look whether that changed.
        read(ttl, true, out);
    }

    /**
     * {@link #write} on the version last seen, sent without a read first. Written: acquired, as after a read. Refused:
     * the version last seen is usually gone (another instance wrote, or the record was deleted outside hoplock), and the
     * read that follows tells what is current: whatever replaced it is observed from that read as a first sighting, so
     * a takeover of it waits for its own whole observation (E4, L3); the
     * refused write, and the version we held, stay remembered for E5 as for any refused write, and the read adopts
     * them if they prove ours. The read may take the new version when it is free (a release, L4). No answer: E5's rule
     * as for any write ({@link AcquireResult.Unavailable}; the next attempt reads first).
     */
    private void writeOnLastSeen(Handle expected, long generation, Duration ttl,
                                 CompletableFuture<AcquireResult> out) {
        if (generation <= 0) {
            out.complete(heldByAnother(locks.pollInterval()));
            return;
        }
        Duration timeout = LeaseTimes.min(locks.requestTimeout(), ttl.minus(locks.safetyMargin(ttl)));
        slot.writer.write(expected, generation, ttl, timeout, new LeaseWriter.Answer() {
            @Override
            public void written(Handle handle, LeaseRecord record, long t0) {
                slot.transition(new LockSlot.Change.Own(new Owned(handle, record, t0, ttl)));
                observe(handle, record);
                slot.holding.begin(record, t0, ttl, out);
            }

            @Override
            public void refused(WriteResult.@Nullable Refusal refusal, LeaseRecord record, long t0) {
                slot.unknown.refused(slot.owned(), record, t0, ttl);
                slot.transition(LockSlot.Change.DISOWN);
                // Read what is current: a new version is observed from this answer on as a first sighting (its handle
                // differs: handles never repeat), an absence as any absence (the deleted-record rule), and the same
                // version, when the refusal left it in place (a conflict that both racing writers lost), keeps its
                // first sighting instead of starting its observation over. Then take it if it is free, name its
                // holder, or adopt our own write (E5).
                read(ttl, true, out);
            }

            @Override
            public void unanswered(BackendException failure) {
                out.complete(new AcquireResult.Unavailable(slot.name(), failure));
            }
        });
    }

    /** Reads the record; {@code mayWrite}: the answer may take the lock (false: only name the holder or adopt). */
    void read(Duration ttl, boolean mayWrite, CompletableFuture<AcquireResult> out) {
        Duration timeout = locks.requestTimeout();
        slot.requests.send(() -> locks.backend().read(slot.key(), timeout), timeout,
                (Optional<StoredObject> result, @Nullable BackendException failure) -> {
                    if (failure != null) {
                        tracker(ttl).lostSight();
                        out.complete(new AcquireResult.Unavailable(slot.name(), failure));
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
            if (slot.owned() != null) {
                // Our version is gone (deleted outside hoplock): whatever we held is no longer in the store.
                slot.transition(LockSlot.Change.DISOWN);
            }
            decide(ttl, mayWrite, out);
            return;
        }
        StoredObject object = result.get();
        LeaseRecord record = null;
        try {
            record = LeaseRecordCodec.decode(object.content());
        } catch (MalformedLeaseRecordException e) {
            LockProblems.warnCorrupt(locks.describeStore(), slot.name(), e.getMessage());
        }
        UnknownWrites.Write mine = record == null ? null : slot.unknown.provablyOurs(record);
        if (mine != null) {
            adoptFound(object.handle(), mine, ttl, mayWrite, out);
            return;
        }
        if (record == null || !record.owner().equals(locks.owner())) {
            // Rule 5: another writer's version is current; no write of unknown outcome may be adopted any more.
            slot.unknown.otherWriterSeen();
        }
        observe(object.handle(), record);
        Owned owned = slot.owned();
        if (owned != null && owned.handle().equals(object.handle()) && mayWrite) {
            if (yieldsTurn(object.handle(), false)) {
                yieldTurn(owned, out);
                return;
            }
            // The current version is the one this process wrote, and its acquisition has ended (no hold): nobody
            // else can hold it, so take it over at once, with a new fencing token (rule 6).
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
            observeFor = TakeoverDecision.observationFor(ttl, firstSightValidityNanos);
        }
        TakeoverDecision.Outcome outcome = locks.takeoverRule().decide(observation, highestGeneration,
                locks.time().nanoTime(), locks.time().wallNow(), observeFor, locks.pollInterval());
        if (outcome instanceof TakeoverDecision.Acquire take && mayWrite) {
            if (yieldsTurn(take.expected(), false)) {
                yieldTurn(null, out);
                return;
            }
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
            return new AcquireResult.HeldByAnother(slot.name(), record.owner(), record.expiresAt(),
                    record.generation(), retryAfter);
        }
        return new AcquireResult.HeldByAnother(slot.name(), "", null, highestGeneration, retryAfter);
    }

    /**
     * Rules 1 and 5: writes a new acquisition at {@code generation}, conditional on {@code expected} (NONE: create),
     * through the one {@link LeaseWriter}: {@code t0} taken before the write; an answer that never came is remembered
     * as a write of unknown outcome.
     */
    private void write(Handle expected, long generation, Duration ttl, CompletableFuture<AcquireResult> out) {
        if (generation <= 0) {
            out.complete(heldByAnother(locks.pollInterval()));
            return;
        }
        Duration timeout = LeaseTimes.min(locks.requestTimeout(), ttl.minus(locks.safetyMargin(ttl)));
        slot.writer.write(expected, generation, ttl, timeout, new LeaseWriter.Answer() {
            @Override
            public void written(Handle handle, LeaseRecord record, long t0) {
                slot.transition(new LockSlot.Change.Own(new Owned(handle, record, t0, ttl)));
                observe(handle, record);
                slot.holding.begin(record, t0, ttl, out);
            }

            @Override
            public void refused(WriteResult.@Nullable Refusal refusal, LeaseRecord record, long t0) {
                // Lost the race (or the refusal hides our own first attempt): read once more to name the holder,
                // or to adopt our write if it provably landed.
                slot.unknown.refused(slot.owned(), record, t0, ttl);
                slot.transition(LockSlot.Change.DISOWN);
                read(ttl, false, out);
            }

            @Override
            public void unanswered(BackendException failure) {
                out.complete(new AcquireResult.Unavailable(slot.name(), failure));
            }
        });
    }

    /**
     * Rule 5: a read found a write of ours whose outcome was unknown. Rule 1: its validity counts from that write's
     * {@code t0} for that write's TTL ({@link LockAdoptionRule#WRITTEN}), not for the {@code ttl} this call asks for.
     */
    private void adoptFound(Handle handle, UnknownWrites.Write mine, Duration ttl, boolean mayWrite,
                            CompletableFuture<AcquireResult> out) {
        slot.unknown.settled();
        LeaseRecord record = mine.record();
        Duration writtenTtl = locks.adoptionRule().ttl(mine, ttl);
        slot.transition(new LockSlot.Change.Own(new Owned(handle, record, mine.t0(), writtenTtl)));
        observe(handle, record);
        LockHold current = slot.hold();
        if (current != null && current.isHeld() && current.token() == record.generation()) {
            out.complete(slot.holding.extend(current, record, mine.t0(), writtenTtl)
                    ? new AcquireResult.Acquired(current, true)
                    : new AcquireResult.Unavailable(slot.name(), LockProblems.answerAfterValidity(slot.name(),
                            writtenTtl)));
        } else if (current == null && slot.holding.startsAfterLastHold(record.generation())) {
            slot.holding.begin(record, mine.t0(), writtenTtl, out);
        } else if (mayWrite) {
            // A late renewal of an acquisition that has ended: take our own version over with a new token.
            write(handle, TakeoverDecision.nextGeneration(highestGeneration), ttl, out);
        } else {
            out.complete(new AcquireResult.Unavailable(slot.name(), LockProblems.lateEarlierWrite(slot.name())));
        }
    }

    /** L7: the turn window of the attempt that starts now (zero: the default mode). */
    void turn(Duration window) {
        this.turn = window;
    }

    /** L7: this process's acquisition of the name ended now (released, lost or past its validity). */
    void holdEnded(long nowNanos) {
        lastHoldEndNanos = nowNanos;
        heldBefore = true;
    }

    /**
     * L7: asks the {@link LockTurnRule} whether the attempt that could take (or, {@code holding}, extend) the version
     * {@code version} now yields its turn instead; remembers the version when it does.
     */
    boolean yieldsTurn(Handle version, boolean holding) {
        if (turn.isZero()) {
            return false;
        }
        long now = locks.time().nanoTime();
        long since = heldBefore ? now - lastHoldEndNanos : -1;
        boolean again = version.equals(yieldedOn);
        if (again && !holding && ownVersion(version)) {
            // The version this process yielded on is still there and still of its own last acquisition: nobody
            // took the turn, and no other instance acquired the name since (d).
            quietSinceNanos = now;
            quiet = true;
            othersSinceQuiet = false;
        }
        long quietFor = !quiet || othersSinceQuiet ? -1 : now - quietSinceNanos;
        boolean yields = locks.turnRule().yields(turn, holding, since, again, quietFor);
        if (yields) {
            yieldedOn = version;
        }
        return yields;
    }

    /** L7 (d): whether {@code version} is the record of this process's last acquisition (held or released by it). */
    private boolean ownVersion(Handle version) {
        Observation.Present present = tracker == null ? null : tracker.present();
        return present != null && present.handle().equals(version) && present.record() != null
                && present.record().generation() <= slot.holding.lastHoldGeneration();
    }

    /**
     * L7: gives the turn away. {@code own}: the version found is this process's own record (its acquisition ended, or,
     * only under a planted defect, still held), written released first (L4) so that another instance may take it at
     * once; the answer is {@link AcquireResult.HeldByAnother}, to look again within the rest of the window.
     */
    void yieldTurn(@Nullable Owned own, CompletableFuture<AcquireResult> out) {
        long since = heldBefore ? locks.time().nanoTime() - lastHoldEndNanos : 0;
        Duration left = Duration.ofNanos(Math.max(0, turn.toNanos() - since));
        Duration retryAfter = LeaseTimes.min(left, locks.pollInterval());
        if (own == null) {
            out.complete(heldByAnother(retryAfter));
            return;
        }
        slot.releaseForTurn(own, released -> {
            if (released != null) {
                yieldedOn = released;
            }
            out.complete(heldByAnother(retryAfter));
        });
    }

    /** Rules 4 and 6: records a version seen (or written) now; a new version restarts the observation. */
    void observe(Handle handle, @Nullable LeaseRecord record) {
        ObservationTracker seen = tracker == null ? tracker(Duration.ofNanos(1)) : tracker;
        Instant wallNow = locks.time().wallNow();
        if (seen.sawVersion(handle, record, locks.time().nanoTime(), wallNow)) {
            firstSightValidityNanos = record == null ? 0 : TakeoverDecision.nanosUntil(wallNow, record.expiresAt());
            if (record != null && !record.owner().equals(locks.owner())
                    && record.generation() > slot.holding.lastHoldGeneration()) {
                // L7 (d): another instance's acquisition (held, or released by it): a generation this one never held.
                othersSinceQuiet = true;
            }
            if (record != null) {
                if (record.generation() < highestGeneration) {
                    LockProblems.warnRegressed(slot.name(), highestGeneration, record.generation());
                }
                highestGeneration = Math.max(highestGeneration, record.generation());
            }
        }
    }

    /** A fresh nonce for a write of ours: every write changes the bytes, and rule 5 recognises its writes by it. */
    String nonce() {
        return LeaseWriter.nonce();
    }

    private ObservationTracker tracker(Duration ttl) {
        if (tracker == null) {
            tracker = new ObservationTracker(ttl);
        }
        return tracker;
    }
}
