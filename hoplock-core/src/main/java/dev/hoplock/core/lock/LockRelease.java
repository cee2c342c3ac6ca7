package dev.hoplock.core.lock;

import dev.hoplock.core.OwnerIds;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.core.internal.lease.Owned;
import dev.hoplock.core.lock.LockEvent;
import dev.hoplock.core.lock.ReleaseOutcome;
import dev.hoplock.core.record.LeaseRecord;
import dev.hoplock.core.record.LeaseRecordCodec;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * The release of an acquisition one {@link LockSlot} holds.
 *
 * <p>Guarantees: the acquisition stops counting as held here before anything is written (rule 2: nothing runs on it
 * afterwards, whatever the store answers); the release writes an expired, ownerless record at the same generation,
 * conditional on the version this process wrote (never a delete), so fencing tokens keep rising (rule 6) and nobody
 * else's version is touched; a release without an answer is never remembered as a write of ours to adopt (rule 5: a
 * released record is nobody's). The outcome says {@link ReleaseOutcome#RELEASED} only when the store confirmed it for
 * an acquisition still valid here; each release is answered once, later calls {@link ReleaseOutcome#ALREADY_RELEASED}.
 * <p>Implements L4 (and, for the fair mode's yielded turns, L7's release: {@link #releaseForTurn}); text in
 * {@link dev.hoplock.core.lock}.
 */
final class LockRelease {

    private final LockSlot slot;
    private final NamedLocks locks;

    LockRelease(LockSlot slot) {
        this.slot = slot;
        this.locks = slot.locks();
    }

    CompletableFuture<ReleaseOutcome> release(LockHold current) {
        synchronized (slot) {
            if (!current.markReleaseCalled()) {
                return CompletableFuture.completedFuture(ReleaseOutcome.ALREADY_RELEASED);
            }
        }
        return slot.queue.enqueue(() -> {
            CompletableFuture<ReleaseOutcome> out = new CompletableFuture<>();
            slot.holding.checkDeadline();
            boolean wasHeld = slot.hold() == current && current.isHeld();
            slot.holding.detach(current);
            current.keepAliveMargin(null);
            current.term().end();
            Owned mine = slot.owned();
            if (mine == null || mine.record().generation() != current.token()) {
                finish(current, ReleaseOutcome.NOT_HELD, out);
                return out;
            }
            LeaseRecord released = LeaseRecord.released(current.token(), OwnerIds.randomHex(8));
            byte[] bytes = LeaseRecordCodec.encode(released);
            Duration timeout = locks.requestTimeout();
            slot.requests.send(() -> locks.backend().write(slot.key(), mine.handle(), bytes, timeout), timeout,
                    (WriteResult result, @Nullable BackendException failure) -> {
                        if (failure != null) {
                            // Never remembered as a write of ours to adopt: a released record is nobody's.
                            finish(current, wasHeld ? ReleaseOutcome.UNKNOWN : ReleaseOutcome.NOT_HELD, out);
                            return;
                        }
                        slot.transition(LockSlot.Change.DISOWN);
                        if (result instanceof WriteResult.Written written) {
                            slot.unknown.settled();
                            slot.takeover.observe(written.handle(), released);
                            finish(current, wasHeld ? ReleaseOutcome.RELEASED : ReleaseOutcome.NOT_HELD, out);
                        } else {
                            finish(current, ReleaseOutcome.NOT_HELD, out);
                        }
                    });
            return out;
        });
    }

    /**
     * L7 with L4: the release of a record of this process whose acquisition has ended (the fair mode yields a turn on
     * it), conditional on that version ({@code mine}); runs inside the attempt that yields, under the slot's monitor.
     * {@code then} gets the released version's handle, or null when the store refused (the record changed) or did not
     * answer (the record then stays as it was, or expires by itself). As for {@link #release}, a release without an
     * answer is never remembered as a write of ours to adopt.
     */
    void releaseForTurn(Owned mine, java.util.function.Consumer<dev.hoplock.core.backend.@Nullable Handle> then) {
        LeaseRecord released = LeaseRecord.released(mine.record().generation(), OwnerIds.randomHex(8));
        byte[] bytes = LeaseRecordCodec.encode(released);
        Duration timeout = locks.requestTimeout();
        slot.requests.send(() -> locks.backend().write(slot.key(), mine.handle(), bytes, timeout), timeout,
                (WriteResult result, @Nullable BackendException failure) -> {
                    if (failure != null) {
                        then.accept(null);
                        return;
                    }
                    slot.transition(LockSlot.Change.DISOWN);
                    if (result instanceof WriteResult.Written written) {
                        slot.unknown.settled();
                        slot.takeover.observe(written.handle(), released);
                        then.accept(written.handle());
                    } else {
                        then.accept(null);
                    }
                });
    }

    private void finish(LockHold current, ReleaseOutcome outcome, CompletableFuture<ReleaseOutcome> out) {
        locks.events().publish(new LockEvent.Released(slot.name(), current.token(), locks.time().wallNow(),
                slot.holding.heldFor(current), outcome));
        out.complete(outcome);
    }
}
