package dev.hoplock.core.lock;

import java.time.Duration;

/**
 * Work in progress under a lock on one thread, opened by {@link LockHandle#enterScope(boolean)}: the same mechanism as
 * the elector's {@link dev.hoplock.core.election.LeaderScope} (and {@code @LeaderOnly}).
 *
 * <p>Guarantees: when the acquisition ends while the scope is open, the scope reports it ({@link #wasLost()}) and, if
 * asked at opening, interrupts the thread that opened it exactly once. After {@link #close()} the thread is never
 * interrupted by this scope. Close it in a {@code finally} block or try-with-resources.
 */
public interface LockScope extends AutoCloseable {

    /** The acquisition this scope belongs to. */
    LockHandle lock();

    /** True when the acquisition ended while this scope was open. */
    boolean wasLost();

    /** True while the scope's acquisition is held and the scope has not been told it ended. */
    boolean isHeld();

    /** Time left until the local deadline; zero once lost. */
    Duration timeLeft();

    /** Throws {@link LockLostException} when the lock is no longer held. */
    default void checkHeld() {
        if (!isHeld()) {
            throw new LockLostException("the lock '" + lock().name() + "' (token " + lock().token() + ") has ended");
        }
    }

    @Override
    void close();
}
