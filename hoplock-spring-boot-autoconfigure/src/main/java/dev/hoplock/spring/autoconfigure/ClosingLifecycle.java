package dev.hoplock.spring.autoconfigure;

import org.springframework.context.SmartLifecycle;

import java.util.concurrent.CompletableFuture;

/**
 * A {@link SmartLifecycle} that begins something when the context starts and closes it when the context stops, in
 * the highest phase ({@link SmartLifecycle#DEFAULT_PHASE}): it stops before the web server's graceful shutdown and
 * before the task scheduler waits for running tasks.
 *
 * <p>Guarantees: {@link #begin()} runs at most once per start, under this lifecycle's lock; {@link #isRunning()} is
 * false from the moment a stop begins; the asynchronous stop runs its callback once the close has completed, whether
 * it completed normally or not.
 */
abstract class ClosingLifecycle implements SmartLifecycle {

    private boolean running;

    /** Begins the work; called by {@link #start()} when not running, under this lifecycle's lock. */
    abstract void begin();

    /** Closes the work; the future completes when it is closed. */
    abstract CompletableFuture<?> closeAsync();

    /** Closes the work, for the synchronous {@link #stop()}. */
    abstract void close();

    @Override
    public final synchronized void start() {
        if (!running) {
            running = true;
            begin();
        }
    }

    @Override
    public final void stop(Runnable callback) {
        stopped();
        closeAsync().whenComplete((done, error) -> callback.run());
    }

    @Override
    public final void stop() {
        stopped();
        close();
    }

    private synchronized void stopped() {
        running = false;
    }

    @Override
    public final synchronized boolean isRunning() {
        return running;
    }

    @Override
    public final int getPhase() {
        return DEFAULT_PHASE;
    }
}
