package dev.hoplock.spring.autoconfigure;

import dev.hoplock.spring.leader.Candidacy;
import dev.hoplock.spring.ownership.HoplockOwnership;
import org.jspecify.annotations.Nullable;
import org.springframework.context.SmartLifecycle;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * Joins the ownership group when the context starts and leaves it first on shutdown, in the same phase as the electors
 * ({@link ClosingLifecycle}: {@link SmartLifecycle#DEFAULT_PHASE}, before the web server and the task scheduler stop):
 * leaving stops every key check at once, interrupts running {@code @LeaderOnly(key = ...)} calls and waits for them up
 * to the release timeout, then deregisters and releases the membership lease, so that the other members take this
 * instance's keys at their next poll (rule M7). The group cannot rejoin once left. With {@code hoplock.act-when=ready}
 * (the default) the group is joined once the application is ready, not at the start ({@link ReadinessCandidacy}).
 */
final class OwnershipLifecycle extends ClosingLifecycle {

    private final HoplockOwnership ownership;
    private final @Nullable Candidacy candidacy;

    /**
     * @param candidacy whether this application takes part now ({@code hoplock.act-when}); while withdrawn the group
     *                  is not joined here, {@link ReadinessCandidacy} joins it once the application is ready; null:
     *                  join at start
     */
    OwnershipLifecycle(HoplockOwnership ownership, @Nullable Candidacy candidacy) {
        this.ownership = Objects.requireNonNull(ownership, "ownership");
        this.candidacy = candidacy;
    }

    @Override
    void begin() {
        if (candidacy != null && !candidacy.isCandidate()) {
            // hoplock.act-when=ready: ReadinessCandidacy joins the group once the application is ready.
            return;
        }
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
