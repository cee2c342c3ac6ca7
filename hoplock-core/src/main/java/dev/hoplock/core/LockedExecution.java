package dev.hoplock.core;

import dev.hoplock.core.lock.AcquireResult;
import dev.hoplock.core.lock.LockHandle;
import dev.hoplock.core.lock.LockNotAcquiredException;
import dev.hoplock.core.lock.LockScope;
import dev.hoplock.core.lock.LockTask;

import java.time.Duration;

/**
 * One execution of a task under a named lock ({@link NamedLocks#withLock(String, Duration, Duration, LockTask)}).
 *
 * <p>Guarantees: the task runs only on a new acquisition (never on one this instance already holds: a second execution
 * in this process is refused, as one in another process is); it runs inside the lock's scope, so the lock's validity
 * is checked where the task checks it; the lock is kept alive a third of its TTL before each expiry when that is above
 * the safety margin; the lock is released when the task ends, however it ends.
 */
final class LockedExecution {

    private LockedExecution() {
    }

    static <T, E extends Exception> T run(NamedLocks locks, LockSlot slot, String name, Duration ttl, Duration maxWait,
                                          LockTask<T, E> task) throws E {
        LockHandle running = slot.validHold();
        if (running != null) {
            throw new LockNotAcquiredException(LockProblems.alreadyRunning(name, running.token()),
                    new AcquireResult.Acquired(running, true));
        }
        AcquireResult answer = maxWait.isZero() ? locks.tryAcquire(name, ttl) : locks.acquire(name, ttl, maxWait);
        if (!(answer instanceof AcquireResult.Acquired acquired)) {
            throw new LockNotAcquiredException(LockProblems.describeRefusal(answer), answer);
        }
        LockHandle lock = acquired.handle();
        if (acquired.extended()) {
            throw new LockNotAcquiredException(LockProblems.alreadyRunning(name, lock.token()), answer);
        }
        try {
            Duration margin = ttl.dividedBy(3);
            if (margin.compareTo(locks.safetyMargin(ttl)) > 0) {
                lock.keepAlive(margin);
            }
            try (LockScope scope = lock.enterScope(true)) {
                return task.run(lock);
            }
        } finally {
            lock.release();
        }
    }
}
