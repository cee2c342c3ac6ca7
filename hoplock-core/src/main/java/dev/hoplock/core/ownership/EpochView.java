package dev.hoplock.core.ownership;

import java.util.concurrent.ConcurrentHashMap;

/**
 * One membership epoch as this instance adopted it, and the per-key answers computed over it: what the hot path reads.
 *
 * <p>Immutable apart from three facts that only ever move one way or are re-confirmed: whether the epoch is settled
 * (rule M3), until when the view may be acted under (rule M2), and the per-key cache. Readable without locks.
 */
final class EpochView {

    /** The longest chain of earlier epochs kept for continuity (rule M4) and tokens (rule M8). */
    static final int MAX_CHAIN = 4;
    static final long NOT_OWNER = -1;
    private static final int CACHE_CAPACITY = OwnerCache.DEFAULT_CAPACITY;

    final Registry registry;
    final MembershipView view;
    final long epoch;
    /** This instance's index in {@link #view}, or -1 when it is not registered at this epoch. */
    final int selfIndex;
    /** The member-lease generation of this instance's entry, or -1. */
    final long selfGeneration;
    /** The previous epoch (exactly {@code epoch - 1}) when this instance held it just before, else null. */
    private volatile EpochView previous;
    /** Monotonic time (local) at which the hand-over grace of rule M3 has passed. */
    private final long graceEndNanos;
    private volatile boolean settled;
    private volatile long deadlineNanos;
    private volatile long wallDeadlineMillis;
    private final ConcurrentHashMap<String, Long> acquired = new ConcurrentHashMap<>();

    EpochView(Registry registry, String selfId, EpochView previous, long graceEndNanos) {
        this.registry = registry;
        this.view = registry.view();
        this.epoch = registry.epoch();
        int index = -1;
        for (int i = 0; i < view.size(); i++) {
            if (view.members().get(i).id().equals(selfId)) {
                index = i;
            }
        }
        this.selfIndex = index;
        Registry.Entry self = registry.entry(selfId);
        this.selfGeneration = self == null ? -1 : self.generation();
        this.previous = previous;
        this.graceEndNanos = graceEndNanos;
        trimChain();
    }

    private void trimChain() {
        EpochView at = this;
        for (int i = 0; i < MAX_CHAIN && at != null; i++) {
            at = at.previous;
        }
        if (at != null) {
            at.previous = null;
        }
    }

    /** Rule M2: the view may be acted under until these deadlines (re-confirmed by every answer showing the epoch). */
    void confirm(long deadlineNanos, long wallDeadlineMillis) {
        if (this.deadlineNanos == 0 || deadlineNanos - this.deadlineNanos > 0) {
            this.deadlineNanos = deadlineNanos;
        }
        this.wallDeadlineMillis = Math.max(this.wallDeadlineMillis, wallDeadlineMillis);
    }

    boolean fresh(long nowNanos, long wallMillis) {
        return deadlineNanos != 0 && nowNanos - deadlineNanos < 0 && wallMillis < wallDeadlineMillis;
    }

    void markSettled() {
        settled = true;
    }

    /** Rule M3: every other member acknowledged the epoch, or the grace has passed on the local monotonic clock. */
    boolean settled(long nowNanos) {
        return settled || nowNanos - graceEndNanos >= 0;
    }

    boolean settledByAcknowledgement() {
        return settled;
    }

    EpochView previous() {
        return previous;
    }

    /**
     * Rule M4: a key owned here is actionable when this epoch is settled, or when it was actionable in the previous
     * epoch under the same registration (same member-lease generation) and is still owned here.
     */
    boolean actionable(String key, long nowNanos) {
        if (acquiredAt(key) == NOT_OWNER) {
            return false;
        }
        if (settled(nowNanos)) {
            return true;
        }
        EpochView before = previous;
        return before != null && before.selfGeneration == selfGeneration && before.actionable(key, nowNanos);
    }

    /**
     * Rule M8: the epoch at which this instance's continuous ownership of {@code key} began (the fencing token), or
     * {@link #NOT_OWNER}.
     */
    long acquiredAt(String key) {
        Long cached = acquired.get(key);
        if (cached != null) {
            return cached;
        }
        long value;
        if (selfIndex < 0 || Rendezvous.ownerIndex(key, view) != selfIndex) {
            value = NOT_OWNER;
        } else {
            EpochView before = previous;
            long earlier = before != null && before.selfGeneration == selfGeneration ? before.acquiredAt(key)
                    : NOT_OWNER;
            value = earlier == NOT_OWNER ? epoch : earlier;
        }
        if (acquired.size() >= CACHE_CAPACITY) {
            acquired.clear();
        }
        acquired.put(key, value);
        return value;
    }

    @Override
    public String toString() {
        return "epoch " + epoch + " " + view.members() + (settled ? " settled" : "");
    }
}
