package dev.hoplock.core;

import dev.hoplock.core.time.TimeSource;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * One continuous period of leadership at one generation. Readable without locks, so that the leader-only gate is a
 * few volatile reads and one clock read.
 *
 * <p>Guarantees: {@link #isValid()} is false from the moment {@link #end()} is called, the monotonic clock reaches
 * {@link #deadlineNanos} or the wall clock reaches the wall deadline, whichever comes first, even if no thread has
 * noticed the deadline yet. Both deadlines come from the same write: {@code t0 + ttl - safetyMargin} on the monotonic
 * clock and {@code wall(t0) + ttl - safetyMargin} on the wall clock, where {@code wall(t0)} is the wall time written
 * into the record's {@code expires_at}. A forward wall step (or a suspend the monotonic clock did not count) thus ends
 * the term early; a backward step is bounded by the monotonic deadline. Every scope
 * open when the term ends is told so; a scope opened concurrently with the end either is told or is refused.
 */
final class Term {

    private final TimeSource time;
    private final OpenScopes scopes = new OpenScopes();
    private final CompletableFuture<Void> drained = new CompletableFuture<>();
    private volatile Lease lease;
    private volatile long deadlineNanos;
    private volatile long wallDeadlineMillis;
    private volatile boolean ended;

    Term(TimeSource time, Lease lease, long deadlineNanos, long wallDeadlineMillis) {
        this.time = time;
        this.lease = lease;
        this.deadlineNanos = deadlineNanos;
        this.wallDeadlineMillis = wallDeadlineMillis;
    }

    boolean isValid() {
        return !ended && time.nanoTime() - deadlineNanos < 0 && time.wallMillis() < wallDeadlineMillis;
    }

    Lease lease() {
        return lease;
    }

    /** Time until the earlier of the two deadlines; zero once the term ended. */
    Duration timeLeft() {
        if (ended) {
            return Duration.ZERO;
        }
        long left = deadlineNanos - time.nanoTime();
        long wallLeft = wallDeadlineMillis - time.wallMillis();
        if (left <= 0 || wallLeft <= 0) {
            return Duration.ZERO;
        }
        return Duration.ofNanos(Math.min(left, wallLeft >= Long.MAX_VALUE / 1_000_000 ? left : wallLeft * 1_000_000));
    }

    /**
     * Records a renewal: the lease as now stored, the later monotonic deadline, and the wall deadline of the record now
     * stored (which may be earlier than the last one if the wall clock stepped back: shortening is always safe).
     */
    void extend(Lease renewed, long newDeadlineNanos, long newWallDeadlineMillis) {
        this.lease = renewed;
        if (newDeadlineNanos - deadlineNanos > 0) {
            this.deadlineNanos = newDeadlineNanos;
        }
        this.wallDeadlineMillis = newWallDeadlineMillis;
    }

    /** Opens a scope, or returns null when the term is no longer valid. */
    @Nullable Scope open(boolean interruptOnLoss) {
        if (!isValid()) {
            return null;
        }
        Scope scope = new Scope(this, Thread.currentThread(), interruptOnLoss);
        return scopes.add(scope) ? scope : null;
    }

    /** Ends the term and tells every open scope; idempotent. */
    void end() {
        if (ended) {
            return;
        }
        ended = true;
        if (scopes.loseAll()) {
            drained.complete(null);
        }
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
        if (scopes.remove(scope)) {
            drained.complete(null);
        }
    }
}
