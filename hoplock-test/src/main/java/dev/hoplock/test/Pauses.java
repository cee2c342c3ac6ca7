package dev.hoplock.test;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;

/**
 * The fuzz run's deliberate waits: injected stalls and the pacing of its loops. None of them synchronises anything;
 * every wait for another thread in the run is a join, a latch or a bounded wait on a condition.
 */
final class Pauses {

    private Pauses() {
    }

    /** Blocks for {@code duration} even if interrupted (a stall that ignores interrupts); keeps the interrupt flag. */
    static void sleepUninterruptibly(Duration duration) {
        long deadline = System.nanoTime() + duration.toNanos();
        boolean interrupted = false;
        long left;
        while ((left = deadline - System.nanoTime()) > 0) {
            try {
                Thread.sleep(left / 1_000_000, (int) (left % 1_000_000));
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Blocks until {@code latch} opens, even if interrupted (a frozen thread); keeps the interrupt flag. */
    static void awaitUninterruptibly(CountDownLatch latch) {
        boolean interrupted = false;
        while (true) {
            try {
                latch.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Blocks for {@code duration} or until interrupted; returns false (interrupt flag set again) when interrupted.
     */
    static boolean sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis(), (int) (duration.toNanos() % 1_000_000));
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Parks the thread briefly to pace a polling loop; returns at once if the thread is interrupted. */
    static void pace(Duration duration) {
        LockSupport.parkNanos(duration.toNanos());
    }
}
