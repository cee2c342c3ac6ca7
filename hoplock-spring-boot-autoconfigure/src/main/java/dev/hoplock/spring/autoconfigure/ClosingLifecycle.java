package dev.hoplock.spring.autoconfigure;

import org.springframework.context.SmartLifecycle;

import java.util.concurrent.CompletableFuture;

/**
 * A {@link SmartLifecycle} that begins something when the context starts and ends it when the context stops, in
 * the highest phase ({@link SmartLifecycle#DEFAULT_PHASE}): it stops before the web server's graceful shutdown and
 * before the task scheduler waits for running tasks.
 *
 * <p>A stop is not always the end: {@code ConfigurableApplicationContext.stop()} and Spring Framework 7's
 * {@code pause()} (which its test context cache calls on a context switch) can be followed by {@code start()} or
 * {@code restart()}. Each subclass says what its stop ends and whether a start after it begins again; what is closed
 * for good is closed when the context closes (bean destruction).
 *
 * <p>Guarantees: {@link #begin()} runs at most once per start, and {@link #endAsync()} once per stop, each under this
 * lifecycle's lock, so a start and a stop never overlap; {@link #isRunning()} is false from the moment a stop
 * begins; the asynchronous stop runs its callback once the end has completed, whether it completed normally or not.
 */
abstract class ClosingLifecycle implements SmartLifecycle {

    private boolean running;

    /** Begins the work; called by {@link #start()} when not running, under this lifecycle's lock. */
    abstract void begin();

    /**
     * Ends the work, under this lifecycle's lock: what must end at once (a term, acting as owner) ends before this
     * returns; the future completes when the rest (releases in the store) is done. Never completes exceptionally.
     */
    abstract CompletableFuture<?> endAsync();

    /** Waits, bounded, for the end {@code ending} to complete, for the synchronous {@link #stop()}. */
    abstract void awaitEnd(CompletableFuture<?> ending);

    @Override
    public final synchronized void start() {
        if (!running) {
            running = true;
            begin();
        }
    }

    @Override
    public final void stop(Runnable callback) {
        stopped().whenComplete((done, error) -> callback.run());
    }

    @Override
    public final void stop() {
        awaitEnd(stopped());
    }

    private synchronized CompletableFuture<?> stopped() {
        running = false;
        return endAsync();
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
