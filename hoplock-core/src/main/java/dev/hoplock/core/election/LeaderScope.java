package dev.hoplock.core.election;

/**
 * One piece of leader work in progress on one thread, opened by {@link Elector#enterLeaderScope(boolean)}, or not
 * bound to a thread (a reactive subscription), opened by {@link Elector#tryEnterLeaderScope(Runnable)}.
 *
 * <p>Guarantees: while the scope is open and the term it was opened in ends, the scope reports the loss
 * ({@link #wasLost()}) and, if asked at opening, interrupts the thread that opened it exactly once, or runs the loss
 * callback it was opened with at most once. After {@link #close()} the thread is never interrupted by this scope, and
 * its callback never runs. Close it in a {@code finally} block or try-with-resources, or when the subscription
 * terminates.
 */
public interface LeaderScope extends LeaderContext, AutoCloseable {

    /** True when the term ended while this scope was open. */
    boolean wasLost();

    @Override
    void close();
}
