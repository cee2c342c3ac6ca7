package dev.hoplock.core;

import dev.hoplock.core.time.TimeSource;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One continuous period of leadership at one generation. Readable without locks, so that the leader-only gate is a
 * few volatile reads and one clock read.
 *
 * <p>Guarantees: {@link #isValid()} is false from the moment {@link #end()} is called or the monotonic clock
 * reaches {@link #deadlineNanos}, whichever comes first, even if no thread has noticed the deadline yet. Every scope
 * open when the term ends is told so; a scope opened concurrently with the end either is told or is refused.
 */
final class Term {

    private final TimeSource time;
    private final Set<Scope> scopes = ConcurrentHashMap.newKeySet();
    private final CompletableFuture<Void> drained = new CompletableFuture<>();
    private volatile Lease lease;
    private volatile long deadlineNanos;
    private volatile boolean ended;

    Term(TimeSource time, Lease lease, long deadlineNanos) {
        this.time = time;
        this.lease = lease;
        this.deadlineNanos = deadlineNanos;
    }

    boolean isValid() {
        return !ended && time.nanoTime() - deadlineNanos < 0;
    }

    Lease lease() {
        return lease;
    }

    long deadlineNanos() {
        return deadlineNanos;
    }

    Duration timeLeft() {
        if (ended) {
            return Duration.ZERO;
        }
        long left = deadlineNanos - time.nanoTime();
        return left > 0 ? Duration.ofNanos(left) : Duration.ZERO;
    }

    /** Records a renewal: the lease as now stored and the later deadline. */
    void extend(Lease renewed, long newDeadlineNanos) {
        this.lease = renewed;
        if (newDeadlineNanos - deadlineNanos > 0) {
            this.deadlineNanos = newDeadlineNanos;
        }
    }

    /** Opens a scope, or returns null when the term is no longer valid. */
    Scope open(boolean interruptOnLoss) {
        if (!isValid()) {
            return null;
        }
        Scope scope = new Scope(this, Thread.currentThread(), interruptOnLoss);
        scopes.add(scope);
        if (ended) {
            scopes.remove(scope);
            return null;
        }
        return scope;
    }

    /** Ends the term and tells every open scope; idempotent. */
    void end() {
        if (ended) {
            return;
        }
        ended = true;
        for (Scope scope : scopes) {
            scope.lose();
        }
        completeIfDrained();
    }

    boolean ended() {
        return ended;
    }

    /** Completes once the term has ended and every scope opened in it is closed. */
    CompletableFuture<Void> drained() {
        return drained;
    }

    int openScopes() {
        return scopes.size();
    }

    void closed(Scope scope) {
        scopes.remove(scope);
        completeIfDrained();
    }

    private void completeIfDrained() {
        if (ended && scopes.isEmpty()) {
            drained.complete(null);
        }
    }
}
