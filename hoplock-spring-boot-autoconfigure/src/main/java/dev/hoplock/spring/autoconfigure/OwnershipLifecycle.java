package dev.hoplock.spring.autoconfigure;

import dev.hoplock.spring.ownership.HoplockOwnership;
import org.springframework.context.SmartLifecycle;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * Joins the ownership group when the context starts and leaves it first on shutdown, in the same phase as the electors
 * ({@link ClosingLifecycle}: {@link SmartLifecycle#DEFAULT_PHASE}, before the web server and the task scheduler stop):
 * leaving stops every key check at once, interrupts running {@code @LeaderOnly(key = ...)} calls and waits for them up
 * to the release timeout, then deregisters and releases the membership lease, so that the other members take this
 * instance's keys at their next poll (rule M7). The group cannot rejoin once left.
 */
final class OwnershipLifecycle extends ClosingLifecycle {

    private final HoplockOwnership ownership;

    OwnershipLifecycle(HoplockOwnership ownership) {
        this.ownership = Objects.requireNonNull(ownership, "ownership");
    }

    @Override
    void begin() {
        ownership.start();
    }

    @Override
    CompletableFuture<?> closeAsync() {
        return ownership.closeAsync();
    }

    @Override
    void close() {
        ownership.close();
    }
}
