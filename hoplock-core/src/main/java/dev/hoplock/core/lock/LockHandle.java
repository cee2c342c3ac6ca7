package dev.hoplock.core.lock;

import java.time.Duration;
import java.time.Instant;
import java.util.function.Consumer;

/**
 * One acquisition of a named lock by this process: from the write that took it until it is released, lost or expired.
 *
 * <p>Guarantees:
 * <ul>
 *   <li>{@link #isHeld()} is true only while the lock was neither released nor lost and the local deadline has not
 *       passed: {@code t0 + ttl - safetyMargin} on the monotonic clock and {@code wall(t0) + ttl - safetyMargin} on the
 *       wall clock, where {@code t0} was taken before the last successful write was sent. It reads local state only
 *       and takes no lock. Once false it never becomes true again (a new acquisition is a new handle);</li>
 *   <li>{@link #isReleased()} is {@code !isHeld()}: released, lost or expired;</li>
 *   <li>{@link #token()} never changes for a handle and is strictly above the token of every earlier acquisition of the
 *       name seen by this process; pass it to downstream systems that reject stale tokens;</li>
 *   <li>when the lock ends other than by {@link #release()} (a keep-alive that failed until the deadline, a record
 *       changed by someone else, the deadline reached without keep-alive, the instance closed), every
 *       {@link #onLost} listener and every {@link LockEvent.Lost} listener is told once, and every open
 *       {@link LockScope} that asked for it has its thread interrupted.</li>
 * </ul>
 * Thread-safe. The blocking calls ({@link #release()}, {@link #mustRelease()}) wait for the name's earlier operations:
 * from a callback of an asynchronous call ({@code tryAcquireAsync(...).thenAccept(...)}) use {@link #releaseAsync()}.
 */
public interface LockHandle {

    /** The lock's name. */
    String name();

    /** The owner id written into the record. */
    String owner();

    /** The fencing token of this acquisition: the record's generation. */
    long token();

    /** The expiry last written into the record, by this machine's wall clock (others decide by their own clocks). */
    Instant expiresAt();

    /** True while held and before the local deadline; see the class comment. */
    boolean isHeld();

    /** True once released, lost or expired: {@code !isHeld()}. */
    boolean isReleased();

    /** Time left until the local deadline; zero once the lock is no longer held. */
    Duration timeLeft();

    /**
     * Throws {@link LockLostException} when the lock is no longer held, so that long work can check between steps.
     */
    void checkHeld();

    /**
     * Releases the lock if it is still this acquisition's: writes an expired, ownerless record at the same generation,
     * conditional on the version this process last wrote, so it can never remove someone else's lock. Idempotent: a
     * second call changes nothing and answers {@link ReleaseOutcome#ALREADY_RELEASED}. Stops the keep-alive; open scopes
     * are told the lock ended.
     *
     * @return what the release did
     */
    ReleaseOutcome release();

    /** As {@link #release()}, without blocking: the stage completes with the outcome. */
    java.util.concurrent.CompletableFuture<ReleaseOutcome> releaseAsync();

    /**
     * As {@link #release()}, but throws when the release had no effect.
     *
     * @throws LockNotHeldException when the lock was no longer this acquisition's (lost, expired, taken over, or
     *                              released before), or the store did not answer (the record then expires by itself)
     */
    void mustRelease();

    /**
     * Extends the lock automatically, {@code margin} before each expiry (counted from the write's {@code t0}), for as
     * long as it is held. A renewal that fails is retried until the local deadline; if none succeeds the lock is lost
     * at the deadline ({@link LockLossCause#KEEP_ALIVE_FAILED}). Calling it again changes the margin and is otherwise
     * harmless. When a later acquire extends the lock with a TTL the margin no longer fits, the margin becomes halfway
     * between the safety margin and the new TTL.
     *
     * @throws IllegalStateException    when the lock is not held (released, lost, expired)
     * @throws IllegalArgumentException when {@code margin} is not above the safety margin or not below the TTL
     */
    void keepAlive(Duration margin);

    /** Stops the keep-alive; the lock then ends at its deadline unless extended. Harmless when none runs. */
    void stopKeepAlive();

    /**
     * Opens a scope for work done under this lock on the calling thread. If the lock ends (other than by a release
     * after the scope closed), the scope reports it ({@link LockScope#wasLost()}) and, when {@code interruptOnLoss},
     * interrupts this thread once.
     *
     * @throws LockLostException when the lock is no longer held
     */
    LockScope enterScope(boolean interruptOnLoss);

    /** Registers {@code listener} to be told once when this acquisition is lost; at once if it already was. */
    void onLost(Consumer<? super LockEvent.Lost> listener);
}
