package dev.hoplock.core.internal.lease;

import dev.hoplock.core.Lease;
import dev.hoplock.core.election.LeaderScope;

import org.jspecify.annotations.Nullable;

import java.time.Duration;

/**
 * The {@link LeaderScope} of one thread within one {@link Term}. Listed in the term's {@link OpenScopes} without a
 * lock; told of the loss by {@link OpenScopes#loseAll(java.util.List)}, which wins the scope's {@link #state} from
 * {@code OPEN} before telling it, while {@link #close()} takes the scope off the stack or wins that state first, and
 * otherwise waits for the telling to finish: so the thread is interrupted at most once and never after
 * {@link #close()} has returned.
 *
 * <p>A scope opened with a loss callback ({@link Term#open(Runnable)}, for work that is not bound to a thread: a
 * reactive subscription) runs the callback instead of interrupting: at most once, after the term ended, after every
 * scope of the term was told (the callback may close this scope), and never once {@link #close()} has returned: the
 * callback runs under this scope's own monitor, which {@code close()} takes too, so a close on another thread waits
 * for a callback already running.
 */
public final class Scope implements LeaderScope {

    /** Listed and not closed, or taken off the stack while open (then unreachable by the end). */
    static final int OPEN = 0;
    /** Closed while listed, before the end won it: never told. */
    static final int CLOSED = 1;
    /** Being told by the end: lost; a close waits until it is {@link #TOLD}. */
    static final int TELLING = 2;
    /** Told (lost, its thread interrupted if it asked), not closed yet. */
    static final int TOLD = 3;
    /** Told, then closed. */
    static final int TOLD_CLOSED = 4;

    private final @Nullable Term term;
    private final @Nullable Thread thread;
    private final boolean interruptOnLoss;
    private final @Nullable Runnable onLoss;
    /** One of the constants above; changed by compare-and-set in {@link OpenScopes}, except TELLING to TOLD. */
    volatile int state;
    // ---- guarded by this (the loss callback against close) ----
    private boolean closed;
    private boolean called;
    /**
     * The scope beneath this one in the term's stack: written before this scope is pushed, and afterwards only by
     * {@link OpenScopes} unlinking a scope closed beneath it (under its lock), so that readers walking the stack without
     * the lock skip it or see it closed.
     */
    volatile @Nullable Scope next;

    /** The mark {@link OpenScopes} puts on top of the stack when the term ends: not a scope of any term. */
    static Scope mark() {
        return new Scope(null, null, false, null);
    }

    Scope(Term term, Thread thread, boolean interruptOnLoss) {
        this(term, thread, interruptOnLoss, null);
    }

    private Scope(@Nullable Term term, @Nullable Thread thread, boolean interruptOnLoss, @Nullable Runnable onLoss) {
        this.term = term;
        this.thread = thread;
        this.interruptOnLoss = interruptOnLoss;
        this.onLoss = onLoss;
    }

    Scope(Term term, Thread thread, Runnable onLoss) {
        this(term, thread, false, onLoss);
    }

    /** Whether this scope has a loss callback, which {@link #callOnLoss()} runs after every scope of the term was told. */
    boolean hasLossCallback() {
        return onLoss != null;
    }

    /**
     * Runs the loss callback: once at most, only after {@link #lose()}, and not once {@link #close()} has begun. Called
     * by {@link Term#end()} after every scope of the term was told; it logs what a callback throws.
     */
    void callOnLoss() {
        Runnable callback = onLoss;
        if (callback == null) {
            return;
        }
        synchronized (this) {
            if (closed || called || !wasLost()) {
                return;
            }
            called = true;
            callback.run();
        }
    }

    /** Called once at most, by the end of the term, once it has won this scope's state (now {@link #TELLING}). */
    void lose() {
        if (interruptOnLoss && thread != null) {
            thread.interrupt();
        }
    }

    @Override
    public boolean wasLost() {
        return state >= TELLING;
    }

    @Override
    public Lease lease() {
        return term().lease();
    }

    @Override
    public boolean isLeading() {
        return !wasLost() && term().isValid();
    }

    @Override
    public Duration timeLeft() {
        return wasLost() ? Duration.ZERO : term().timeLeft();
    }

    @Override
    public void close() {
        if (onLoss != null) {
            synchronized (this) {
                closed = true;
            }
        }
        term().closed(this);
    }

    private Term term() {
        return java.util.Objects.requireNonNull(term, "the end-of-term mark is not a scope");
    }
}
