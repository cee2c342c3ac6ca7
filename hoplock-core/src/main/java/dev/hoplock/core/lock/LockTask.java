package dev.hoplock.core.lock;

/** Work run by {@link Locks#withLock} while holding a lock. */
@FunctionalInterface
public interface LockTask<T, E extends Exception> {

    /** Runs the work; {@code lock} gives the fencing token and tells whether the lock is still held. */
    T run(LockHandle lock) throws E;
}
