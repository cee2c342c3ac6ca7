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
 * instance's keys at their next poll (rule M7). With {@code hoplock.act-when=ready} (the default) the group is joined
 * once the application is ready, not at the start ({@link ReadinessCandidacy}).
 *
 * <h2>No rejoin: not paused, and a start after a stop fails</h2>
 * An {@link dev.hoplock.core.ownership.OwnershipGroup} cannot be started again once it has left: its member's liveness
 * term, its view and its claims belong to the one membership. Rebuilding it behind {@link HoplockOwnership} would
 * move every listener, meter and health check the context attached to the group, so we do not. Instead:
 * <ul>
 *   <li>{@link #isPauseable()} is false: Spring Framework 7's {@code pause()} (its test context cache pauses a cached
 *       context on a context switch) does not stop this lifecycle; the group stays joined while the context is paused
 *       and {@code restart()} finds it running.</li>
 *   <li>An explicit {@code stop()} leaves the group; a {@code start()} after it fails with an
 *       {@link IllegalStateException} naming the group and the fix (close the context and create a new one).</li>
 * </ul>
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
        if (ownership.isClosed()) {
            throw new IllegalStateException("hoplock: the ownership group '" + ownership.name() + "' was left when"
                    + " this application context stopped, and a member cannot rejoin once it has left (rule M7);"
                    + " close the context and create a new one instead of stop() and start(). Spring Framework 7's"
                    + " pause() and restart() (the test context cache) keep the group joined and need nothing.");
        }
        if (candidacy != null && !candidacy.isCandidate()) {
            // hoplock.act-when=ready: ReadinessCandidacy joins the group once the application is ready.
            return;
        }
        ownership.start();
    }

    /**
     * False: a pause (Spring Framework 7) leaves the group joined, since it cannot rejoin. Not an override on Spring
     * Framework 6.2, which has no pause and so never asks.
     */
    public boolean isPauseable() {
        return false;
    }

    @Override
    CompletableFuture<?> endAsync() {
        return ownership.closeAsync();
    }

    @Override
    void awaitEnd(CompletableFuture<?> ending) {
        ownership.close();
    }
}
