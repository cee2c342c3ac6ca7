package dev.hoplock.core.internal.lease;

import dev.hoplock.core.Lease;
import dev.hoplock.core.time.TimeSource;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * One continuous period of leadership at one generation. Readable without locks, so that the leader-only gate is a
 * few volatile reads and both clock reads; a scope opens and closes without a lock too ({@link OpenScopes}: one
 * compare-and-set each on the usual path).
 *
 * <p>Guarantees: {@link #isValid()} is false from the moment {@link #end()} is called, the monotonic clock reaches
 * {@link #deadlineNanos} or the wall clock reaches the wall deadline, whichever comes first, even if no thread has
 * noticed the deadline yet. Both deadlines come from the same write: {@code t0 + ttl - safetyMargin} on the monotonic
 * clock and {@code wall(t0) + ttl - safetyMargin} on the wall clock, where {@code wall(t0)} is the wall time written
 * into the record's {@code expires_at}. A forward wall step (or a suspend the monotonic clock did not count) thus ends
 * the term early; a backward step is bounded by the monotonic deadline. Every scope
 * open when the term ends is told so; a scope opened concurrently with the end either is told or is refused.
 */
public final class Term {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(Term.class);

    private final TimeSource time;
    private final OpenScopes scopes = new OpenScopes();
    private final CompletableFuture<Void> drained = new CompletableFuture<>();
    private volatile Lease lease;
    private volatile long deadlineNanos;
    private volatile long wallDeadlineMillis;
    private volatile boolean ended;

    public Term(TimeSource time, Lease lease, long deadlineNanos, long wallDeadlineMillis) {
        this.time = time;
        this.lease = lease;
        this.deadlineNanos = deadlineNanos;
        this.wallDeadlineMillis = wallDeadlineMillis;
    }

    public boolean isValid() {
        return !ended && time.nanoTime() - deadlineNanos < 0 && time.wallMillis() < wallDeadlineMillis;
    }

    public Lease lease() {
        return lease;
    }

    /** Time until the earlier of the two deadlines; zero once the term ended. */
    public Duration timeLeft() {
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
     * Rule 1 (E1) for a renewal that answered: the lease as now stored, and exactly the deadlines of its write, on both
     * clocks: {@code t0 + ttl - safetyMargin} and {@code expires_at - safetyMargin}. Never the later of the old and the
     * new deadline: a renewal may shorten the TTL (a named lock extended for less time than it was taken for), and
     * after it the record promises the other owners nothing beyond this write's validity. For the elector, whose TTL
     * never changes and whose renewals are sent one at a time with rising {@code t0}, the new monotonic deadline is
     * always the later one anyway.
     */
    public void extend(Lease renewed, long newDeadlineNanos, long newWallDeadlineMillis) {
        this.lease = renewed;
        this.deadlineNanos = newDeadlineNanos;
        this.wallDeadlineMillis = newWallDeadlineMillis;
    }

    /**
     * Rule 1 (E1, "whether or not a renewal is in flight") for a write about to be sent: it may land even if its answer
     * never comes, so from now on the term ends no later than that write's validity would, on either clock. Only ever
     * shortens: the write before it still holds if this one does not land. Called before a renewal that may shorten
     * the TTL (a named lock's extension); a renewal with the same TTL and a later {@code t0} changes nothing.
     */
    public void boundBy(long writeDeadlineNanos, long writeWallDeadlineMillis) {
        if (writeDeadlineNanos - deadlineNanos < 0) {
            this.deadlineNanos = writeDeadlineNanos;
        }
        if (writeWallDeadlineMillis < wallDeadlineMillis) {
            this.wallDeadlineMillis = writeWallDeadlineMillis;
        }
    }

    /** Opens a scope, or returns null when the term is no longer valid. */
    public @Nullable Scope open(boolean interruptOnLoss) {
        if (!isValid()) {
            return null;
        }
        Scope scope = new Scope(this, Thread.currentThread(), interruptOnLoss);
        return scopes.add(scope) ? scope : null;
    }

    /**
     * Opens a scope whose loss runs {@code onLoss} instead of interrupting a thread (work not bound to a thread, such
     * as a reactive subscription), or returns null when the term is no longer valid. See {@link Scope} for when the
     * callback runs: once at most, after the term ended and every scope was told, never after close; on the thread
     * that ends the term, which may hold the engine's lock, so the callback must only hand the loss off.
     */
    public @Nullable Scope open(Runnable onLoss) {
        java.util.Objects.requireNonNull(onLoss, "onLoss");
        if (!isValid()) {
            return null;
        }
        Scope scope = new Scope(this, Thread.currentThread(), onLoss);
        return scopes.add(scope) ? scope : null;
    }

    /**
     * Ends the term and tells every open scope; idempotent. The loss callbacks of scopes that have one run after
     * every scope was told, on this thread; one that throws is logged and does not
     * keep the others from running, nor this method from returning normally (its caller goes on ending the term).
     */
    public void end() {
        if (ended) {
            return;
        }
        ended = true;
        List<Scope> withCallback = new ArrayList<>(0);
        if (scopes.loseAll(withCallback)) {
            drained.complete(null);
        }
        for (Scope scope : withCallback) {
            try {
                scope.callOnLoss();
            } catch (RuntimeException e) {
                log.warn("hoplock: a loss callback of a scope of '{}' at generation {} threw; the term ended all the"
                        + " same", lease.key(), lease.generation(), e);
            }
        }
    }

    public boolean ended() {
        return ended;
    }

    /** Completes once the term has ended and every scope opened in it is closed. */
    public CompletableFuture<Void> drained() {
        return drained;
    }

    public int openScopes() {
        return scopes.size();
    }

    /** The scopes in the term's stack, closed ones beneath an open one included; for tests of its bound. */
    int stackedScopes() {
        return scopes.stacked();
    }

    void closed(Scope scope) {
        if (scopes.remove(scope)) {
            drained.complete(null);
        }
    }
}
