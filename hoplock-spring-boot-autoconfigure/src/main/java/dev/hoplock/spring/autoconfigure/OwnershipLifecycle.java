package dev.hoplock.spring.autoconfigure;

import dev.hoplock.spring.ownership.HoplockOwnership;
import org.springframework.context.SmartLifecycle;

import java.util.Objects;

/**
 * Joins the ownership group when the context starts and leaves it first on shutdown, in the same phase as the
 * electors ({@link SmartLifecycle#DEFAULT_PHASE}, before the web server and the task scheduler stop): leaving stops
 * every key check at once, interrupts running {@code @LeaderOnly(key = ...)} calls and waits for them up to the
 * release timeout, then deregisters and releases the membership lease, so that the other members take this
 * instance's keys at their next poll (rule M7). The group cannot rejoin once left.
 */
final class OwnershipLifecycle implements SmartLifecycle {

    private final HoplockOwnership ownership;
    private boolean running;

    OwnershipLifecycle(HoplockOwnership ownership) {
        this.ownership = Objects.requireNonNull(ownership, "ownership");
    }

    @Override
    public synchronized void start() {
        if (!running) {
            running = true;
            ownership.start();
        }
    }

    @Override
    public void stop(Runnable callback) {
        synchronized (this) {
            running = false;
        }
        ownership.closeAsync().whenComplete((done, error) -> callback.run());
    }

    @Override
    public void stop() {
        synchronized (this) {
            running = false;
        }
        ownership.close();
    }

    @Override
    public synchronized boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return DEFAULT_PHASE;
    }
}
