package dev.hoplock.core.internal.lease;

import dev.hoplock.core.Lease;
import dev.hoplock.core.election.LeaderScope;

import org.jspecify.annotations.Nullable;

import java.time.Duration;

/**
 * The {@link LeaderScope} of one thread within one {@link Term}. Told of the loss by
 * {@link OpenScopes#loseAll(java.util.List)} under the lock that also closes it, so that the thread is interrupted at
 * most once and never after {@link #close()}.
 *
 * <p>A scope opened with a loss callback ({@link Term#open(Runnable)}, for work that is not bound to a thread: a
 * reactive subscription) runs the callback instead of interrupting: at most once, after the term ended, outside the
 * lock of the scope list (the callback may close this scope, which takes that lock), and never once {@link #close()}
 * has returned: the callback runs under this scope's own monitor, which {@code close()} takes too, so a close on
 * another thread waits for a callback already running.
 */
public final class Scope implements LeaderScope {

    private final Term term;
    private final Thread thread;
    private final boolean interruptOnLoss;
    private final @Nullable Runnable onLoss;
    private volatile boolean lost;
    // ---- guarded by this (the loss callback against close) ----
    private boolean closed;
    private boolean called;
    // ---- guarded by the term's OpenScopes ----
    boolean listed;
    @Nullable Scope previous;
    @Nullable Scope next;

    Scope(Term term, Thread thread, boolean interruptOnLoss) {
        this(term, thread, interruptOnLoss, null);
    }

    Scope(Term term, Thread thread, boolean interruptOnLoss, @Nullable Runnable onLoss) {
        this.term = term;
        this.thread = thread;
        this.interruptOnLoss = interruptOnLoss;
        this.onLoss = onLoss;
    }

    /** Whether this scope has a loss callback, which {@link #callOnLoss()} runs outside the scope list's lock. */
    boolean hasLossCallback() {
        return onLoss != null;
    }

    /**
     * Runs the loss callback: once at most, only after {@link #lose()}, and not once {@link #close()} has begun. Never
     * called under the lock of the scope list; {@link Term#end()} logs what a callback throws.
     */
    void callOnLoss() {
        Runnable callback = onLoss;
        if (callback == null) {
            return;
        }
        synchronized (this) {
            if (closed || called || !lost) {
                return;
            }
            called = true;
            callback.run();
        }
    }

    /** Called once at most, under the lock of the term's {@link OpenScopes}, while this scope is listed. */
    void lose() {
        lost = true;
        if (interruptOnLoss) {
            thread.interrupt();
        }
    }

    @Override
    public boolean wasLost() {
        return lost;
    }

    @Override
    public Lease lease() {
        return term.lease();
    }

    @Override
    public boolean isLeading() {
        return !lost && term.isValid();
    }

    @Override
    public Duration timeLeft() {
        return lost ? Duration.ZERO : term.timeLeft();
    }

    @Override
    public void close() {
        if (onLoss != null) {
            synchronized (this) {
                closed = true;
            }
        }
        term.closed(this);
    }
}
