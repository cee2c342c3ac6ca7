package dev.hoplock.core.lock;

import dev.hoplock.core.internal.lease.LeaseWriter;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.internal.lease.ObservationTracker;
import dev.hoplock.core.internal.lease.Owned;
import dev.hoplock.core.internal.lease.RequestBook;
import dev.hoplock.core.internal.lease.TakeoverDecision;
import dev.hoplock.core.internal.lease.Term;
import dev.hoplock.core.internal.lease.UnknownWrites;
import dev.hoplock.core.lock.AcquireResult;
import dev.hoplock.core.lock.LockEvent;
import dev.hoplock.core.lock.ReleaseOutcome;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * The state and protocol of one lock name in one {@link NamedLocks}: what this process has observed of the name's
 * record and the acquisition it holds. The safety rules are the elector's, through the same types, each applied by one
 * small type of this slot:
 * <ul>
 *   <li>rule 0 (E0, a capable store): the elector's {@link dev.hoplock.core.internal.lease.VerificationGate}, asked through {@link LockStoreGate}
 *       before every attempt;</li>
 *   <li>rules 1 and 2 (validity anchored before the write, self-fencing): {@link LockHolding}, with a {@link Term}
 *       begun and extended from the {@code t0} taken before each write, ended by a timer at its deadline and checked
 *       before every answer;</li>
 *   <li>rule 3 (bounded requests, late answers ignored): {@link RequestBook}, each request bounded by the request
 *       timeout and, for a renewal, by the time left ({@link LockKeepAlive});</li>
 *   <li>rule 4 (takeover only after local observation), rule 5 (unknown outcomes: {@link UnknownWrites}, a write
 *       without an answer is answered {@link AcquireResult.Unavailable}, never "acquired") and rule 6 (fencing):
 *       {@link LockTakeover}, with {@link ObservationTracker} and {@link TakeoverDecision};</li>
 *   <li>a release writes an expired, ownerless record at the same generation (never a delete), so fencing tokens keep
 *       rising: {@link LockRelease}.</li>
 *   <li>L7 (the fair mode's turns, with a turn window above zero): {@link LockTakeover} asks {@link LockTurnRule}
 *       whether an attempt yields its turn instead of taking the name.</li>
 * </ul>
 * Operations run one at a time in call order ({@link SlotQueue}); all state, here and in the parts, is guarded by this
 * object's monitor. The slot's own state (the version owned, the acquisition held) changes only through
 * {@link #transition(Change)}.
 */
final class LockSlot {

    private final NamedLocks locks;
    private final String name;
    private final String key;
    final RequestBook requests;
    /** E1 and E5: the one acquire write, shared with the elector. */
    final LeaseWriter writer;
    final SlotQueue queue = new SlotQueue(this);
    final LockTakeover takeover;
    final LockHolding holding;
    final LockKeepAlive keepAlive;
    private final LockRelease release;

    // ---- guarded by this; owned and hold change only by transition(Change) ----
    final UnknownWrites unknown = new UnknownWrites();
    /** The version of the record this process wrote last and still counts as its own, or null. */
    private @Nullable Owned owned;
    /** The acquisition this process holds (possibly past its deadline until {@link LockHolding#checkDeadline()}). */
    private @Nullable LockHold hold;

    LockSlot(NamedLocks locks, String name, String key) {
        this.locks = locks;
        this.name = name;
        this.key = key;
        this.takeover = new LockTakeover(this);
        this.holding = new LockHolding(this);
        this.keepAlive = new LockKeepAlive(this);
        this.release = new LockRelease(this);
        this.requests = new RequestBook(this, locks.timers(), locks::describeStore, holding::checkDeadline,
                locks::guard);
        this.writer = new LeaseWriter(locks.backend(), locks.time(), requests, unknown, key, locks.owner());
    }

    /**
     * A change of this slot's state (the version of the record it owns, the acquisition it holds); each names what
     * happened. {@link #transition(Change)} is the one place where they are applied.
     */
    sealed interface Change permits Change.Own, Change.Hold, Change.Simple {

        /** A write of ours landed or was adopted: {@code version} is the record this slot owns now (E1, E5, L2). */
        record Own(Owned version) implements Change {
        }

        /** An acquisition began on the version owned: {@code started} is the hold (E1, E2). */
        record Hold(LockHold started) implements Change {
        }

        /** The changes that carry nothing. */
        enum Simple implements Change {
            /** No version of ours is current any more (refused, released, or gone). */
            DISOWN,
            /** The hold ended (lost, expired, released): the slot holds nothing. */
            UNHOLD
        }

        Simple DISOWN = Simple.DISOWN;
        Simple UNHOLD = Simple.UNHOLD;
    }

    /**
     * The one place where this slot's state changes (as Resilience4j's {@code CircuitBreakerStateMachine
     * .stateTransition}): the rule types ({@link LockTakeover}, {@link LockHolding}, {@link LockKeepAlive},
     * {@link LockRelease}) call it, holding this object's monitor.
     */
    void transition(Change change) {
        if (change instanceof Change.Own own) {
            owned = own.version();
        } else if (change instanceof Change.Hold held) {
            hold = held.started();
        } else {
            switch ((Change.Simple) change) {
                case DISOWN -> owned = null;
                case UNHOLD -> hold = null;
            }
        }
    }

    /** The version of the record this process wrote last and still counts as its own, or null. */
    @Nullable Owned owned() {
        return owned;
    }

    /** The acquisition this process holds (possibly past its deadline until {@link LockHolding#checkDeadline()}). */
    @Nullable LockHold hold() {
        return hold;
    }

    String name() {
        return name;
    }

    String key() {
        return key;
    }

    NamedLocks locks() {
        return locks;
    }

    /** The acquisition held now (valid by the local clocks), or null. */
    synchronized @Nullable LockHold validHold() {
        return hold != null && hold.isHeld() ? hold : null;
    }

    /** One attempt with the instance's turn window: see {@link #tryAcquire(Duration, Duration)}. */
    CompletableFuture<AcquireResult> tryAcquire(Duration ttl) {
        return tryAcquire(ttl, locks.fairTurn());
    }

    /**
     * One attempt: extend the acquisition held, or read and take the lock if rule 4 allows; rule 0 first. A {@code turn}
     * above zero is the fair mode's window (L7, {@link LockTurnRule}): the attempt may yield its turn instead.
     */
    CompletableFuture<AcquireResult> tryAcquire(Duration ttl, Duration turn) {
        return queue.enqueue(() -> locks.verified().handle((ok, error) -> error).thenCompose(error -> {
            synchronized (this) {
                takeover.turn(turn);
                if (error != null) {
                    AcquireResult refused = new AcquireResult.Unavailable(name, asBackendException(error));
                    locks.events().publish(new LockEvent.Refused(name, 0, locks.time().wallNow(), refused));
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
        return LockProblems.notVerified(locks.describeStore(), name, cause);
    }

    /** One attempt on a verified store (rule 0): renew what is held, else read and decide (rule 4). */
    private CompletableFuture<AcquireResult> attempt(Duration ttl) {
        CompletableFuture<AcquireResult> out = new CompletableFuture<>();
        holding.checkDeadline();
        LockHold current = hold;
        if (current != null && owned != null) {
            if (takeover.yieldsTurn(owned.handle(), true)) {
                // Never with the engine's rule (L7: a holder extends); only a planted defect yields here.
                takeover.yieldTurn(owned, out);
            } else {
                keepAlive.renew(current, ttl, false, out);
            }
        } else {
            takeover.acquire(ttl, out);
        }
        return out.whenComplete((answer, error) -> {
            if (answer != null && !answer.acquired()) {
                locks.events().publish(new LockEvent.Refused(name, tokenOf(answer), locks.time().wallNow(), answer));
            }
        });
    }

    private static long tokenOf(AcquireResult answer) {
        return answer instanceof AcquireResult.HeldByAnother held ? held.token() : 0;
    }

    void keepAlive(LockHold current, Duration margin) {
        keepAlive.start(current, margin);
    }

    void stopKeepAlive(LockHold current) {
        keepAlive.stop(current);
    }

    CompletableFuture<ReleaseOutcome> release(LockHold current) {
        return release.release(current);
    }

    /** L7: see {@link LockRelease#releaseForTurn}. */
    void releaseForTurn(Owned mine, java.util.function.Consumer<dev.hoplock.core.backend.@Nullable Handle> then) {
        release.releaseForTurn(mine, then);
    }
}
