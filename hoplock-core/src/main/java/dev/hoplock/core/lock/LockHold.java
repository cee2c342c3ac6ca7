package dev.hoplock.core.lock;

import dev.hoplock.core.internal.lease.Scope;
import dev.hoplock.core.internal.lease.Term;
import dev.hoplock.core.lock.LockEvent;
import dev.hoplock.core.lock.LockHandle;
import dev.hoplock.core.lock.LockLossCause;
import dev.hoplock.core.lock.LockLostException;
import dev.hoplock.core.lock.LockNotHeldException;
import dev.hoplock.core.lock.LockScope;
import dev.hoplock.core.lock.ReleaseOutcome;
import dev.hoplock.core.time.HumanDurations;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * One acquisition of a named lock ({@link LockHandle}): a {@link Term} (rules 1 and 2: validity from the write's
 * {@code t0}, on both clocks, checked at every call) plus the keep-alive setting and loss listeners. State changes
 * happen under the {@link LockSlot}'s lock; the validity checks read the term without any lock.
 */
final class LockHold implements LockHandle {

    private final LockSlot slot;
    private final Term term;
    private final long generation;
    private final long startNanos;
    // ---- guarded by slot ----
    private Duration ttl;
    private long t0;
    private @Nullable Duration keepAliveMargin;
    private boolean releaseCalled;
    private LockEvent.@Nullable Lost lost;
    private final List<Consumer<? super LockEvent.Lost>> lossListeners = new ArrayList<>();

    LockHold(LockSlot slot, Term term, long generation, Duration ttl, long t0) {
        this.slot = slot;
        this.term = term;
        this.generation = generation;
        this.ttl = ttl;
        this.t0 = t0;
        this.startNanos = t0;
    }

    Term term() {
        return term;
    }

    Duration ttl() {
        return ttl;
    }

    long t0() {
        return t0;
    }

    long startNanos() {
        return startNanos;
    }

    /** A renewal written at {@code t0} for {@code ttl} succeeded. */
    void renewed(Duration ttl, long t0) {
        this.ttl = ttl;
        this.t0 = t0;
    }

    @Nullable Duration keepAliveMargin() {
        return keepAliveMargin;
    }

    void keepAliveMargin(@Nullable Duration margin) {
        this.keepAliveMargin = margin;
    }

    /** Marks the release as called; false when it was called before. */
    boolean markReleaseCalled() {
        if (releaseCalled) {
            return false;
        }
        releaseCalled = true;
        return true;
    }

    /**
     * The loss of this acquisition, read under {@code slot}'s monitor, so that a scope told of the loss (and its
     * thread interrupted) inside {@link LockHolding#end} sees the event recorded by the same call.
     */
    LockEvent.Lost loss(LockSlot slot) {
        synchronized (slot) {
            LockEvent.Lost known = lost;
            if (known != null) {
                return known;
            }
        }
        // Only reached when the scope was told of a loss not (yet) recorded: say so rather than fail.
        return new LockEvent.Lost(name(), generation, slot.locks().time().wallNow(), Duration.ZERO,
                LockLossCause.EXPIRED, "the lock ended");
    }

    /** Records the loss and returns the listeners to tell (once). */
    List<Consumer<? super LockEvent.Lost>> lost(LockEvent.Lost event) {
        this.lost = event;
        List<Consumer<? super LockEvent.Lost>> toTell = new ArrayList<>(lossListeners);
        lossListeners.clear();
        return toTell;
    }

    @Override
    public String name() {
        return slot.name();
    }

    @Override
    public String owner() {
        return term.lease().owner();
    }

    @Override
    public long token() {
        return generation;
    }

    @Override
    public Instant expiresAt() {
        return term.lease().expiresAt();
    }

    @Override
    public boolean isHeld() {
        return term.isValid();
    }

    @Override
    public boolean isReleased() {
        return !isHeld();
    }

    @Override
    public Duration timeLeft() {
        return term.timeLeft();
    }

    @Override
    public void checkHeld() {
        if (!isHeld()) {
            throw new LockLostException("the lock '" + name() + "' (token " + generation + ") is no longer held: it was"
                    + " released, lost or expired");
        }
    }

    @Override
    public ReleaseOutcome release() {
        return LockWaits.await(slot.release(this), "releasing the lock '" + name() + "'", false);
    }

    @Override
    public java.util.concurrent.CompletableFuture<ReleaseOutcome> releaseAsync() {
        return slot.release(this);
    }

    @Override
    public void mustRelease() {
        ReleaseOutcome outcome = release();
        if (outcome != ReleaseOutcome.RELEASED) {
            String why = switch (outcome) {
                case NOT_HELD -> "it was no longer held by this acquisition (lost, taken over or expired)";
                case ALREADY_RELEASED -> "it was released before";
                case UNKNOWN -> "the store did not answer; the record expires by itself at " + expiresAt();
                case RELEASED -> "";
            };
            throw new LockNotHeldException("the release of the lock '" + name() + "' (token " + generation
                    + ") had no effect: " + why, outcome);
        }
    }

    @Override
    public void keepAlive(Duration margin) {
        java.util.Objects.requireNonNull(margin, "margin");
        slot.keepAlive(this, margin);
    }

    @Override
    public void stopKeepAlive() {
        slot.stopKeepAlive(this);
    }

    @Override
    public LockScope enterScope(boolean interruptOnLoss) {
        Scope scope = term.open(interruptOnLoss);
        if (scope == null) {
            throw new LockLostException("the lock '" + name() + "' (token " + generation + ") is no longer held: no"
                    + " work may start under it");
        }
        return new HeldScope(this, scope);
    }

    @Override
    public void onLost(Consumer<? super LockEvent.Lost> listener) {
        java.util.Objects.requireNonNull(listener, "listener");
        LockEvent.Lost already;
        synchronized (slot) {
            already = lost;
            if (already == null) {
                lossListeners.add(listener);
                return;
            }
        }
        listener.accept(already);
    }

    @Override
    public String toString() {
        return "LockHandle[" + name() + ", token " + generation + ", " + (isHeld() ? "held, "
                + HumanDurations.format(timeLeft()) + " left" : "released") + "]";
    }

    /** The cause to report when the deadline passes: whether a keep-alive was running. */
    LockLossCause deadlineCause() {
        return keepAliveMargin != null ? LockLossCause.KEEP_ALIVE_FAILED : LockLossCause.EXPIRED;
    }
}
