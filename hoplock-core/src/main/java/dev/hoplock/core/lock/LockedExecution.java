package dev.hoplock.core.lock;

import dev.hoplock.core.election.Elector;
import dev.hoplock.core.lock.AcquireResult;
import dev.hoplock.core.lock.LockEvent;
import dev.hoplock.core.lock.LockHandle;
import dev.hoplock.core.lock.LockLostException;
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
 * the safety margin; the lock is released when the task ends, however it ends. When the lock is lost while the task
 * runs (rule 2, E2: the scope is told and the thread interrupted) and the task then fails, the caller gets a
 * {@link LockLostException} with the loss and the task's exception as its cause, never the bare interruption; the
 * interrupt the loss delivered is cleared when the task ends, unless the thread was interrupted on entry (as
 * {@link Elector#lead} does). A task that returns normally after the loss has its result returned.
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
            boolean interruptedOnEntry = Thread.currentThread().isInterrupted();
            LockScope scope = lock.enterScope(true);
            try {
                return task.run(lock);
            } catch (Exception e) {
                if (scope.wasLost()) {
                    throw lostDuringTask(slot, (LockHold) lock, e);
                }
                throw e;
            } finally {
                scope.close();
                if (scope.wasLost() && !interruptedOnEntry) {
                    // Rule 2 delivered this interrupt to stop the task; it is not the caller's (as in Elector.lead).
                    Thread.interrupted();
                }
            }
        } finally {
            lock.release();
        }
    }

    /**
     * Rule 2 (E2): the lock ended while the task ran and the task then failed (typically with the interruption the
     * loss delivered): the caller is told the lock was lost, with the loss and the task's exception as the cause.
     */
    private static LockLostException lostDuringTask(LockSlot slot, LockHold lock, Exception failure) {
        LockEvent.Lost loss = lock.loss(slot);
        return new LockLostException(LockProblems.lostDuringTask(lock.name(), lock.token(), loss, failure), loss,
                failure);
    }
}
