package dev.hoplock.core.lock;

import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.core.internal.lease.LeaseTimes;
import dev.hoplock.core.internal.lease.Owned;
import dev.hoplock.core.internal.lease.Term;
import dev.hoplock.core.internal.lease.UnknownWrites;
import dev.hoplock.core.lock.AcquireResult;
import dev.hoplock.core.lock.LockLossCause;
import dev.hoplock.core.record.LeaseRecord;
import dev.hoplock.core.record.LeaseRecordCodec;
import dev.hoplock.core.time.Scheduler;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * Renewals of the acquisition one {@link LockSlot} holds, asked for by a caller or sent by the keep-alive timer.
 * <ul>
 *   <li>rule 1 (E1): a renewal is written with a {@code t0} taken before it; from the moment it is sent it bounds the
 *       {@link Term} by its own validity ({@link LockHolding#renewing}: it may land unanswered), and its answer sets
 *       the term's deadline to exactly that validity ({@link LockHolding#extend}), shorter or longer;</li>
 *   <li>rule 3 (bounded requests): a renewal is bounded by the request timeout and by the time left, so its answer
 *       can never arrive after the deadline and still count;</li>
 *   <li>rule 5: a renewal without an answer is remembered in {@link UnknownWrites}; the keep-alive retries it after a
 *       poll, at the latest halfway to the deadline; a refused renewal ends the acquisition unless a read proves the
 *       current version ours.</li>
 * </ul>
 * Guarantees: the keep-alive margin stays between the safety margin and the TTL (a renewal is sent before the lock
 * stops being usable); the keep-alive never renews an acquisition that has ended. Every method runs under the slot's
 * monitor (the timer's operation is queued on the slot), which guards the state kept here.
 * <p>Implements L5 (with {@link LockHolding}, which ends the lock and tells); text in {@link dev.hoplock.core.lock}.
 */
final class LockKeepAlive {

    private final LockSlot slot;
    private final NamedLocks locks;

    // ---- guarded by the slot ----
    private Scheduler.@Nullable Cancellable renewTimer;

    LockKeepAlive(LockSlot slot) {
        this.slot = slot;
        this.locks = slot.locks();
    }

    /**
     * Extends {@code current} for {@code ttl}; {@code out} completes once the renewal (and any read it needs) is done.
     * {@code keepAlive}: sent by the keep-alive, which retries a renewal without an answer until the deadline.
     */
    void renew(LockHold current, Duration ttl, boolean keepAlive, CompletableFuture<AcquireResult> out) {
        Owned mine = slot.owned();
        if (mine == null || slot.hold() != current || !current.isHeld()) {
            if (keepAlive) {
                out.complete(new AcquireResult.Unavailable(slot.name(), LockProblems.noLongerHeld(slot.name())));
            } else {
                slot.takeover.read(ttl, true, out);
            }
            return;
        }
        long t0 = locks.time().nanoTime();
        LeaseRecord record = new LeaseRecord(current.token(), locks.time().wallNow().plus(ttl), locks.owner(),
                slot.takeover.nonce());
        // Rule 1: the renewal may land unanswered, so the acquisition ends no later than its validity from now on.
        slot.holding.renewing(current, record, t0, ttl);
        Duration timeout = LeaseTimes.min(locks.requestTimeout(), current.timeLeft());
        if (timeout.isZero()) {
            // The write's own validity is over before it is sent (a TTL not above its safety margin): nothing to send.
            slot.holding.checkDeadline();
            out.complete(new AcquireResult.Unavailable(slot.name(), LockProblems.noLongerHeld(slot.name())));
            return;
        }
        byte[] bytes = LeaseRecordCodec.encode(record);
        slot.requests.send(() -> locks.backend().write(slot.key(), mine.handle(), bytes, timeout), timeout,
                (WriteResult result, @Nullable BackendException failure) -> {
                    if (failure != null) {
                        slot.unknown.remember(record, t0, ttl);
                        if (keepAlive && slot.hold() == current && current.keepAliveMargin() != null) {
                            retry(current);
                        }
                        out.complete(new AcquireResult.Unavailable(slot.name(), failure));
                        return;
                    }
                    if (result instanceof WriteResult.Written written) {
                        slot.unknown.settled();
                        slot.transition(new LockSlot.Change.Own(new Owned(written.handle(), record, t0, ttl)));
                        slot.takeover.observe(written.handle(), record);
                        out.complete(slot.holding.extend(current, record, t0, ttl)
                                ? new AcquireResult.Acquired(current, true)
                                : new AcquireResult.Unavailable(slot.name(),
                                        LockProblems.answerAfterValidity(slot.name(), ttl)));
                        return;
                    }
                    onRefused(current, ttl, record, t0, out);
                });
    }

    /** Rule 5: a refused renewal ends the acquisition, unless it hides our own earlier write that a read adopts. */
    private void onRefused(LockHold current, Duration ttl, LeaseRecord record, long t0,
                           CompletableFuture<AcquireResult> out) {
        boolean earlierUnknown = !slot.unknown.isEmpty();
        slot.unknown.refused(slot.owned(), record, t0, ttl);
        slot.transition(LockSlot.Change.DISOWN);
        if (!earlierUnknown) {
            slot.holding.end(current, LockLossCause.TAKEN_OVER, LockProblems.renewalRefused(locks.describeStore()));
        }
        // Read to adopt the version if it is provably ours, or to see who holds it now.
        CompletableFuture<AcquireResult> checked = new CompletableFuture<>();
        checked.whenComplete((answer, error) -> {
            synchronized (slot) {
                if (slot.hold() == current && !(answer instanceof AcquireResult.Acquired)) {
                    slot.holding.end(current, LockLossCause.TAKEN_OVER,
                            LockProblems.renewalRefusedNotOurs(locks.describeStore()));
                }
            }
            if (error != null) {
                out.completeExceptionally(error);
            } else {
                out.complete(answer);
            }
        });
        slot.takeover.read(ttl, false, checked);
    }

    /** Starts (or re-times) the keep-alive of {@code current}: a renewal {@code margin} before each expiry. */
    void start(LockHold current, Duration margin) {
        synchronized (slot) {
            slot.holding.checkDeadline();
            if (slot.hold() != current || !current.isHeld()) {
                throw new IllegalStateException(LockProblems.keepAliveNotHeld(slot.name(), current.token()));
            }
            Duration safety = locks.safetyMargin(current.ttl());
            if (margin.compareTo(current.ttl()) >= 0 || margin.compareTo(safety) <= 0) {
                throw new IllegalArgumentException(LockProblems.keepAliveMargin(slot.name(), margin, current.ttl(),
                        safety));
            }
            current.keepAliveMargin(margin);
            schedule(current);
        }
    }

    void stop(LockHold current) {
        synchronized (slot) {
            if (slot.hold() == current) {
                current.keepAliveMargin(null);
                cancelTimer();
            } else {
                current.keepAliveMargin(null);
            }
        }
    }

    /** After an extension with {@code ttl} the margin no longer fits: renew halfway between safety margin and expiry. */
    void refit(LockHold current, Duration ttl) {
        Duration keepAliveMargin = current.keepAliveMargin();
        Duration safety = locks.safetyMargin(ttl);
        if (keepAliveMargin != null && (keepAliveMargin.compareTo(ttl) >= 0 || keepAliveMargin.compareTo(safety) <= 0)) {
            current.keepAliveMargin(safety.plus(ttl).dividedBy(2));
        }
    }

    void schedule(LockHold current) {
        Duration margin = current.keepAliveMargin();
        if (margin == null) {
            return;
        }
        long due = current.t0() + current.ttl().toNanos() - margin.toNanos();
        renewIn(current, Duration.ofNanos(Math.max(0, due - locks.time().nanoTime())));
    }

    /** A renewal failed without an answer: retry after a poll, but at the latest halfway to the deadline. */
    private void retry(LockHold current) {
        Duration half = current.timeLeft().dividedBy(2);
        renewIn(current, LockHolding.max(Duration.ofMillis(10), LeaseTimes.min(locks.pollInterval(), half)));
    }

    private void renewIn(LockHold current, Duration delay) {
        LockHolding.cancel(renewTimer);
        renewTimer = locks.timers().schedule(() -> slot.queue.enqueue(() -> {
            CompletableFuture<AcquireResult> done = new CompletableFuture<>();
            synchronized (slot) {
                slot.holding.checkDeadline();
                if (slot.hold() == current && current.keepAliveMargin() != null && current.isHeld()) {
                    renew(current, current.ttl(), true, done);
                } else {
                    done.complete(null);
                }
            }
            return done;
        }), delay);
    }

    void cancelTimer() {
        LockHolding.cancel(renewTimer);
        renewTimer = null;
    }
}
