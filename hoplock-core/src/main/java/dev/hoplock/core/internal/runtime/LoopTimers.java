package dev.hoplock.core.internal.runtime;

import dev.hoplock.core.time.ExecutorScheduler;
import dev.hoplock.core.time.Scheduler;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.function.Consumer;

/**
 * The elector's timers: every timer of the loop goes through here, so that a {@link Scheduler} that throws (a custom
 * scheduler that is shut down or overloaded, an {@link ArithmeticException} from a delay it cannot represent) never
 * stops the loop.
 *
 * <p>Guarantees: {@link #schedule} never throws. When the scheduler throws, the failure is handed to the reporter and
 * the task is scheduled on a fallback timer instead (a daemon thread created on first need, or the one given); the
 * next timer tries the scheduler again. Only when the fallback throws too (it has been closed: the elector is
 * stopping) is the task dropped, and that is reported as well.
 */
public final class LoopTimers {

    /** The longest delay handed to the fallback timer; the loop re-arms long waits anyway. */
    private static final Duration MAX_FALLBACK_DELAY = Duration.ofDays(1);

    private final Scheduler scheduler;
    private final String threadName;
    private final Consumer<RuntimeException> onFailure;
    private @Nullable Scheduler fallback;
    private @Nullable ExecutorScheduler ownFallback;

    public LoopTimers(Scheduler scheduler, @Nullable Scheduler fallback, String threadName,
            Consumer<RuntimeException> onFailure) {
        this.scheduler = scheduler;
        this.fallback = fallback;
        this.threadName = threadName;
        this.onFailure = onFailure;
    }

    public Scheduler.Cancellable schedule(Runnable task, Duration delay) {
        try {
            return scheduler.schedule(task, delay);
        } catch (RuntimeException e) {
            onFailure.accept(e);
        }
        Duration bounded = delay.compareTo(MAX_FALLBACK_DELAY) > 0 ? MAX_FALLBACK_DELAY : delay;
        try {
            return fallback().schedule(task, bounded);
        } catch (RuntimeException e) {
            onFailure.accept(e);
            return () -> { };
        }
    }

    private synchronized Scheduler fallback() {
        if (fallback == null) {
            ownFallback = new ExecutorScheduler(threadName);
            fallback = ownFallback;
        }
        return fallback;
    }

    /** Stops the fallback thread if one was started. */
    public synchronized void close() {
        if (ownFallback != null) {
            ownFallback.close();
        }
    }
}
