package dev.hoplock.core.internal.lease;

import dev.hoplock.core.Lease;
import dev.hoplock.core.election.LeaderScope;

import org.jspecify.annotations.Nullable;

import java.time.Duration;

/**
 * The {@link LeaderScope} of one thread within one {@link Term}. Told of the loss by {@link OpenScopes#loseAll()}
 * under the lock that also closes it, so that the thread is interrupted at most once and never after
 * {@link #close()}.
 */
public final class Scope implements LeaderScope {

    private final Term term;
    private final Thread thread;
    private final boolean interruptOnLoss;
    private volatile boolean lost;
    // ---- guarded by the term's OpenScopes ----
    boolean listed;
    @Nullable Scope previous;
    @Nullable Scope next;

    Scope(Term term, Thread thread, boolean interruptOnLoss) {
        this.term = term;
        this.thread = thread;
        this.interruptOnLoss = interruptOnLoss;
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
        term.closed(this);
    }
}
