package dev.hoplock.core.lock;

import dev.hoplock.core.time.TimeSource;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * Named locks over one store, for one owner id. Implemented by {@link NamedLocks}.
 *
 * <p>A lock belongs to an <em>owner</em> (one id per {@code Locks} instance, by default one per process), not to a
 * thread: taking a lock this instance already holds extends it and answers {@link AcquireResult.Acquired} with
 * {@link AcquireResult.Acquired#extended()} true and the same {@link LockHandle} (same fencing token). Callers that want
 * "one execution at a time" also within the process treat an extension as "already running here".
 *
 * <p>Guarantees:
 * <ul>
 *   <li>{@link #tryAcquire} never blocks longer than two reads and two writes (each bounded by the request timeout:
 *       usually one write, conditional on the version this instance last saw, when that version was its own or
 *       released; else a read and at most one write; a refused write on the version last seen is followed by the read,
 *       and a refused write after a read by one more read)
 *       and
 *       never answers {@code Acquired} unless a conditional write of this instance's record is known to have
 *       succeeded (or a read proved a write of unknown outcome was ours: owner, generation and nonce);</li>
 *   <li>another owner's lock is taken only after this instance saw its record unchanged for a whole TTL on its own
 *       monotonic clock and the record's {@code expires_at} passed by the local wall clock (see the package Javadoc);
 *       a lock released by its holder is taken at once;</li>
 *   <li>every acquisition gets a fencing token strictly above every token this instance has seen for that name;</li>
 *   <li>any number of names share the instance's one scheduler thread: there is no thread per name;</li>
 *   <li>operations on one name run one after another, in the order they were called.</li>
 * </ul>
 * Not guaranteed: fairness. Of several instances asking for a free lock the first whose write lands wins, and an
 * instance that left its own record to expire takes it back at once while the others must observe it for a TTL; so one
 * instance may win every time. {@link #tryAcquire(String, Duration, Duration)} (the fair mode, L7) takes turns.
 * Thread-safe.
 */
public interface Locks extends AutoCloseable {

    /** The owner id written into every record of this instance. */
    String owner();

    /**
     * The clock this instance measures its locks by (TTLs, validity, the fair mode's turns): the system clock unless
     * it was built with another (a test's virtual time). Code that keeps its own times about these locks, such as the
     * {@code @WithLock} gate's minimum hold, reads this clock so that both move together.
     */
    default TimeSource time() {
        return TimeSource.system();
    }

    /**
     * Tries once to take (or, when this instance holds it, extend) the lock {@code name} for {@code ttl}, blocking the
     * caller for at most two reads and two writes (see the class comment).
     *
     * @param name a lock name: segments of letters, digits, {@code . _ -} separated by {@code /}
     * @param ttl  how long the lock is valid after this call's write (the keep-alive renews it for as long again)
     * @throws IllegalArgumentException naming the problem for an invalid name or TTL (zero, negative, over 7 days)
     * @throws LockInterruptedException when the calling thread is interrupted while waiting (no lock is left held)
     */
    AcquireResult tryAcquire(String name, Duration ttl);

    /** As {@link #tryAcquire(String, Duration)}, without blocking: the stage completes with the answer. */
    CompletableFuture<AcquireResult> tryAcquireAsync(String name, Duration ttl);

    /**
     * As {@link #tryAcquire(String, Duration)}, in the fair mode with the turn window {@code fairTurn} (zero: the
     * default mode): when this instance's last acquisition of {@code name} ended less than {@code fairTurn} ago and it
     * finds the lock free, it yields its turn once per version it finds, answering
     * {@link AcquireResult.HeldByAnother} (after releasing its own record, if that is what it found, so that another
     * instance may take it at once); it takes the lock at a later attempt that finds the same version, or after the
     * window. The rule (L7) and what it costs: the package doc and {@code docs/named-locks.md}, "Fairness".
     *
     * <p>The default implementation supports only a zero window (it calls {@link #tryAcquire(String, Duration)});
     * {@link NamedLocks} implements the fair mode.
     *
     * @throws IllegalArgumentException for a negative window or one above 7 days
     * @throws UnsupportedOperationException when the implementation has no fair mode and {@code fairTurn} is not zero
     */
    default AcquireResult tryAcquire(String name, Duration ttl, Duration fairTurn) {
        if (fairTurn.isZero()) {
            return tryAcquire(name, ttl);
        }
        throw new UnsupportedOperationException(getClass().getName() + " has no fair mode (fairTurn "
                + fairTurn + "): use NamedLocks, or a zero fairTurn");
    }

    /** As {@link #tryAcquire(String, Duration, Duration)}, without blocking. */
    default CompletableFuture<AcquireResult> tryAcquireAsync(String name, Duration ttl, Duration fairTurn) {
        if (fairTurn.isZero()) {
            return tryAcquireAsync(name, ttl);
        }
        throw new UnsupportedOperationException(getClass().getName() + " has no fair mode (fairTurn "
                + fairTurn + "): use NamedLocks, or a zero fairTurn");
    }

    /**
     * Takes the lock {@code name}, waiting up to {@code maxWait} while it is held by another owner (or the store does
     * not answer), looking again at least every poll interval.
     *
     * @return {@link AcquireResult.Acquired}, or the last other answer when {@code maxWait} passed first
     * @throws LockInterruptedException when the calling thread is interrupted while waiting (no lock is left held)
     */
    AcquireResult acquire(String name, Duration ttl, Duration maxWait);

    /** As {@link #acquire(String, Duration, Duration)}, without blocking. */
    CompletableFuture<AcquireResult> acquireAsync(String name, Duration ttl, Duration maxWait);

    /**
     * Runs {@code task} holding the lock {@code name} and releases it in all cases (return, exception, loss), trying
     * once: while the task runs the lock is kept alive ({@link LockHandle#keepAlive}, a third of the TTL before expiry)
     * and the task's thread runs inside a {@link LockScope} that is interrupted when the lock is lost.
     *
     * @return what the task returned
     * @throws LockNotAcquiredException when the lock is held by another owner or the store did not answer (the task
     *                                  did not run); also when this instance already holds the lock (an execution in
     *                                  this process is running)
     * @throws LockLostException        when the lock was lost while the task ran and the task then failed (most often
     *                                  with the interruption the loss delivered): {@link LockLostException#loss()} is
     *                                  the loss, its cause what the task threw; a task that returns normally after a
     *                                  loss has its result returned (it can check {@link LockHandle#isHeld()})
     * @throws E                        what the task threw while the lock was held
     */
    <T, E extends Exception> T withLock(String name, Duration ttl, LockTask<T, E> task) throws E;

    /** As {@link #withLock(String, Duration, LockTask)}, waiting up to {@code maxWait} for the lock. */
    <T, E extends Exception> T withLock(String name, Duration ttl, Duration maxWait, LockTask<T, E> task) throws E;

    /** The locks this instance holds now (valid by the local clocks), in no particular order. */
    List<LockHandle> held();

    /**
     * The lock names this instance has asked for since it started, each with the lease key its record is stored under,
     * sorted by name; local state only, no store request (the Actuator endpoint and operators read those keys). The
     * default knows none: an implementation that does not know its keys shows nothing rather than a wrong key.
     */
    default java.util.SortedMap<String, String> keysByName() {
        return new java.util.TreeMap<>();
    }

    /**
     * Registers a listener for every {@link LockEvent} of this instance (acquired, extended, released, lost). Events are
     * delivered one at a time on the event executor, in the order they happened for each name.
     *
     * @return a handle that removes the listener when closed
     */
    AutoCloseable addListener(Consumer<? super LockEvent> listener);

    /**
     * Releases every lock this instance holds (waiting up to the request timeout for each), stops keep-alives and the
     * threads this instance started. Idempotent. Locks whose release had no answer expire by themselves.
     */
    @Override
    void close();
}
