package dev.hoplock.core.lock;

import dev.hoplock.core.Lease;
import dev.hoplock.core.internal.lease.LeaseTimes;
import dev.hoplock.core.internal.lease.Term;
import dev.hoplock.core.lock.AcquireResult;
import dev.hoplock.core.lock.LockEvent;
import dev.hoplock.core.lock.LockLossCause;
import dev.hoplock.core.record.LeaseRecord;
import dev.hoplock.core.time.Scheduler;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * The acquisition one {@link LockSlot} holds: its beginning, its extensions and its end, by the elector's rules 1 and
 * 2 (E1, E2).
 * <ul>
 *   <li>rule 1 (validity anchored before the write): {@link #begin} and {@link #extend} count the {@link Term} from
 *       the {@code t0} taken before the write, for the TTL written, minus the safety margin (by the monotonic clock and,
 *       as a second bound, by the written expiry on the wall clock); an answer that came after that validity begins
 *       nothing. An extension gives exactly its own write's validity, never the later deadline of an earlier, longer
 *       write, and bounds the acquisition by that validity already when it is sent ({@link #renewing}): a write
 *       without an answer may have landed (issue 19, defect 8);</li>
 *   <li>rule 2 (self-fencing): a timer ends the acquisition at its deadline, and {@link #checkDeadline()} ends it
 *       before any answer is handled, so nothing runs on a lock after it could have expired here.</li>
 * </ul>
 * Guarantees: each acquisition ends exactly once, with one {@link LockEvent.Lost} naming its cause; only an
 * acquisition with a generation above the last one held begins. Every method runs under the slot's monitor (the
 * timer takes it), which guards the state kept here.
 * <p>Implements L1 (applies {@link LockExtensionRule}) and E2 for a lock; text in {@link dev.hoplock.core.lock}.
 */
final class LockHolding {

    private final LockSlot slot;
    private final NamedLocks locks;

    // ---- guarded by the slot ----
    private long lastHoldGeneration;
    private Scheduler.@Nullable Cancellable deadlineTimer;

    LockHolding(LockSlot slot) {
        this.slot = slot;
        this.locks = slot.locks();
    }

    /** The generation of the last acquisition this slot held (0: none); L7 tells its own acquisitions by it. */
    long lastHoldGeneration() {
        return lastHoldGeneration;
    }

    /** Rule 6 for adopted writes: whether an acquisition at {@code generation} would come after the last one held. */
    boolean startsAfterLastHold(long generation) {
        return generation > lastHoldGeneration;
    }

    /** Rule 1: begins the acquisition written at {@code t0}, unless its validity has already passed. */
    void begin(LeaseRecord record, long t0, Duration ttl, CompletableFuture<AcquireResult> out) {
        Term term = newTerm(record, t0, ttl);
        if (!term.isValid()) {
            // The answer came after the validity it would give: it is ours in the store, but not usable now. The next
            // attempt takes our version over at once (owned), with a new token.
            out.complete(new AcquireResult.Unavailable(slot.name(), LockProblems.answerAfterValidity(slot.name(), ttl)));
            return;
        }
        lastHoldGeneration = record.generation();
        LockHold started = new LockHold(slot, term, record.generation(), ttl, t0);
        slot.transition(new LockSlot.Change.Hold(started));
        armDeadline(started);
        locks.events().publish(new LockEvent.Acquired(slot.name(), record.generation(), locks.time().wallNow(),
                record.expiresAt()));
        out.complete(new AcquireResult.Acquired(started, false));
    }

    private Term newTerm(LeaseRecord record, long t0, Duration ttl) {
        long margin = locks.safetyMargin(ttl).toNanos();
        long deadline = LeaseTimes.deadlineNanos(t0, ttl.toNanos(), margin);
        long wallDeadline = LeaseTimes.wallDeadlineMillis(record, margin);
        Lease lease = new Lease(slot.key(), locks.owner(), record.generation(), record.expiresAt());
        return new Term(locks.time(), lease, deadline, wallDeadline);
    }

    /**
     * Rule 1 (E1) for a renewal about to be written at {@code t0} for {@code ttl} as {@code record}: it
     * may land even if no answer comes, so {@code current} ends no later than that write's validity from now on. A
     * renewal for a shorter TTL than the last one thus shortens the acquisition before it is sent; one for the same
     * TTL changes nothing. The deadline timer is re-armed if the deadline came closer.
     */
    void renewing(LockHold current, LeaseRecord record, long t0, Duration ttl) {
        long margin = locks.safetyMargin(ttl).toNanos();
        long written = LeaseTimes.deadlineNanos(t0, ttl.toNanos(), margin);
        long before = current.term().timeLeft().toNanos();
        current.term().boundBy(locks.extensionRule().deadlineNanos(heldDeadline(current), written),
                LeaseTimes.wallDeadlineMillis(record, margin));
        if (current.term().timeLeft().toNanos() < before) {
            armDeadline(current);
        }
    }

    /**
     * Rule 1 (E1): extends {@code current} to the validity of {@code record}, written at {@code t0} for {@code ttl}:
     * exactly that write's deadlines, never the later deadline of an earlier, longer write ({@link LockExtensionRule}).
     *
     * @return whether {@code current} is still held: false when the answer came after the validity it gives (rule 2
     *         then ends it here)
     */
    boolean extend(LockHold current, LeaseRecord record, long t0, Duration ttl) {
        long margin = locks.safetyMargin(ttl).toNanos();
        long written = LeaseTimes.deadlineNanos(t0, ttl.toNanos(), margin);
        current.term().extend(new Lease(slot.key(), locks.owner(), record.generation(), record.expiresAt()),
                locks.extensionRule().deadlineNanos(heldDeadline(current), written),
                LeaseTimes.wallDeadlineMillis(record, margin));
        current.renewed(ttl, t0);
        if (!current.isHeld()) {
            checkDeadline();
            return false;
        }
        slot.keepAlive.refit(current, ttl);
        armDeadline(current);
        if (current.keepAliveMargin() != null) {
            slot.keepAlive.schedule(current);
        }
        locks.events().publish(new LockEvent.Extended(slot.name(), record.generation(), locks.time().wallNow(),
                record.expiresAt()));
        return true;
    }

    /** The monotonic deadline of the last write of {@code current} that answered (rule 1). */
    private long heldDeadline(LockHold current) {
        return LeaseTimes.deadlineNanos(current.t0(), current.ttl().toNanos(),
                locks.safetyMargin(current.ttl()).toNanos());
    }

    /** Rule 2: a timer at the deadline of {@code current}, re-armed while it is extended. */
    private void armDeadline(LockHold current) {
        cancel(deadlineTimer);
        // At least a millisecond: a scheduler that rounds a delay down must not make this a busy loop.
        Duration left = max(current.timeLeft(), Duration.ofMillis(1));
        deadlineTimer = locks.timers().schedule(() -> {
            synchronized (slot) {
                if (slot.hold() != current) {
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
    void checkDeadline() {
        LockHold current = slot.hold();
        if (current != null && !current.isHeld() && !current.term().ended()) {
            LockLossCause cause = current.deadlineCause();
            end(current, cause, LockProblems.deadlinePassed(cause == LockLossCause.KEEP_ALIVE_FAILED));
        }
    }

    /** Ends {@code current} (once): it stops being the slot's hold, its timers stop, and its loss is published. */
    void end(LockHold current, LockLossCause cause, String detail) {
        detach(current);
        if (current.term().ended()) {
            return;
        }
        current.term().end();
        LockEvent.Lost event = new LockEvent.Lost(slot.name(), current.token(), locks.time().wallNow(),
                heldFor(current), cause, detail);
        locks.events().publishLoss(event, current.lost(event));
    }

    /** If {@code current} is the slot's hold: it no longer is, and its deadline and keep-alive timers are cancelled. */
    void detach(LockHold current) {
        if (slot.hold() == current) {
            slot.transition(LockSlot.Change.UNHOLD);
            slot.takeover.holdEnded(locks.time().nanoTime());
            cancel(deadlineTimer);
            slot.keepAlive.cancelTimer();
            deadlineTimer = null;
        }
    }

    Duration heldFor(LockHold current) {
        return Duration.ofNanos(Math.max(0, locks.time().nanoTime() - current.startNanos()));
    }

    static void cancel(Scheduler.@Nullable Cancellable cancellable) {
        if (cancellable != null) {
            cancellable.cancel();
        }
    }

    static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }
}
