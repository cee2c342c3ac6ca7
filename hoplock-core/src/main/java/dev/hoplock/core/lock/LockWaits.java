package dev.hoplock.core.lock;

import dev.hoplock.core.internal.lease.LeaseTimes;
import dev.hoplock.core.internal.runtime.LoopTimers;
import dev.hoplock.core.lock.AcquireResult;
import dev.hoplock.core.lock.LockInterruptedException;
import dev.hoplock.core.time.TimeSource;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.BooleanSupplier;

/**
 * Waiting for a lock, and waiting for an answer on the caller's thread.
 *
 * <p>Guarantees: {@link #acquire} attempts again (each attempt queued on the name's {@link LockSlot}, so the safety
 * rules apply to each) until the lock is acquired, the wait is over or the instance is closed, looking again at least
 * every poll interval and never more often than every 10 ms; an acquisition that completes after its caller gave up is
 * released, never left held. {@link #await} keeps a thread's interruption visible and releases an acquisition that
 * completes after its waiter was interrupted.
 */
final class LockWaits {

    private static final Duration MIN_RETRY_GAP = Duration.ofMillis(10);

    private final TimeSource time;
    private final LoopTimers timers;
    private final Duration pollInterval;
    private final BooleanSupplier closed;

    LockWaits(TimeSource time, LoopTimers timers, Duration pollInterval, BooleanSupplier closed) {
        this.time = time;
        this.timers = timers;
        this.pollInterval = pollInterval;
        this.closed = closed;
    }

    /** Attempts on {@code slot} until acquired or {@code maxWait} has passed by the monotonic clock. */
    CompletableFuture<AcquireResult> acquire(LockSlot slot, Duration ttl, Duration maxWait) {
        CompletableFuture<AcquireResult> out = new CompletableFuture<>();
        long giveUpAt = time.nanoTime() + maxWait.toNanos();
        attempt(slot, ttl, giveUpAt, out);
        return out;
    }

    private void attempt(LockSlot slot, Duration ttl, long giveUpAt, CompletableFuture<AcquireResult> out) {
        if (out.isDone()) {
            return;
        }
        slot.tryAcquire(ttl).whenComplete((answer, error) -> {
            if (error != null) {
                out.completeExceptionally(error);
                return;
            }
            long left = giveUpAt - time.nanoTime();
            if (answer.acquired() || left <= 0 || closed.getAsBoolean()) {
                if (!out.complete(answer) && answer instanceof AcquireResult.Acquired acquired
                        && !acquired.extended()) {
                    acquired.handle().releaseAsync();
                }
                return;
            }
            Duration wait = answer instanceof AcquireResult.HeldByAnother held ? held.retryAfter() : pollInterval;
            wait = LeaseTimes.min(LeaseTimes.min(wait, pollInterval), Duration.ofNanos(left));
            if (wait.compareTo(MIN_RETRY_GAP) < 0) {
                wait = MIN_RETRY_GAP;
            }
            timers.schedule(() -> attempt(slot, ttl, giveUpAt, out), wait);
        });
    }

    /**
     * Waits for {@code future} on the calling thread. On interruption the thread's flag is set again and, when
     * {@code releaseIfLate}, an acquisition that completes after all is released.
     */
    static <T> T await(CompletableFuture<T> future, String what, boolean releaseIfLate) {
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            if (releaseIfLate) {
                future.thenAccept(answer -> {
                    if (answer instanceof AcquireResult.Acquired acquired && !acquired.extended()) {
                        acquired.handle().releaseAsync();
                    }
                });
            }
            throw new LockInterruptedException("interrupted while " + what, e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException("unexpected failure while " + what, cause);
        }
    }
}
