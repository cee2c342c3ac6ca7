package dev.hoplock.core;

import java.time.Duration;

/** The {@link LeaderScope} of one thread within one {@link Term}. */
final class Scope implements LeaderScope {

    private final Term term;
    private final Thread thread;
    private final boolean interruptOnLoss;
    private boolean lost;
    private boolean closed;

    Scope(Term term, Thread thread, boolean interruptOnLoss) {
        this.term = term;
        this.thread = thread;
        this.interruptOnLoss = interruptOnLoss;
    }

    synchronized void lose() {
        if (closed || lost) {
            return;
        }
        lost = true;
        if (interruptOnLoss) {
            thread.interrupt();
        }
    }

    @Override
    public synchronized boolean wasLost() {
        return lost;
    }

    @Override
    public Lease lease() {
        return term.lease();
    }

    @Override
    public boolean isLeading() {
        return !wasLost() && term.isValid();
    }

    @Override
    public Duration timeLeft() {
        return wasLost() ? Duration.ZERO : term.timeLeft();
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        term.closed(this);
    }
}
