package dev.hoplock.core.ownership;

import dev.hoplock.core.election.Elector;
import dev.hoplock.core.time.Scheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * Rule M7, leave only after stopping: how an {@link OwnershipGroup} leaves its group.
 *
 * <p>Guarantees, in this order: every check stops answering "owner" at once ({@link ActingGate#stopActing}), open
 * claims are told, and up to the release timeout is given for them to close; only when all closed (and the release
 * timeout is not negative) is this member's registry entry removed ({@link MembershipLoop#deregister}); then the
 * registry loop stops and the liveness elector closes. With a claim still open the member neither deregisters nor
 * releases: its lease expires and rule M6 removes it. The returned future never fails.
 */
final class Departure {

    private static final Logger log = LoggerFactory.getLogger(OwnershipGroup.class);

    private final GroupConfig config;
    private final ActingGate gate;
    private final ClaimBook claims;
    private final Scheduler scheduler;
    private final MembershipLoop loop;
    private final Elector elector;
    private final Runnable releaseResources;

    Departure(GroupConfig config, ActingGate gate, ClaimBook claims, Scheduler scheduler, MembershipLoop loop,
              Elector elector, Runnable releaseResources) {
        this.config = config;
        this.gate = gate;
        this.claims = claims;
        this.scheduler = scheduler;
        this.loop = loop;
        this.elector = elector;
        this.releaseResources = releaseResources;
    }

    /** Leaves, completing {@code done} when finished (once). */
    void leave(CompletableFuture<Void> done) {
        gate.stopActing();
        claims.loseAll();
        Duration wait = config.releaseTimeout().isNegative() ? Duration.ZERO : config.releaseTimeout();
        CompletableFuture<Boolean> stopped = new CompletableFuture<>();
        claims.drained().thenRun(() -> stopped.complete(true));
        scheduler.schedule(() -> stopped.complete(false), wait);
        stopped.thenCompose(allClosed -> {
            if (!allClosed) {
                log.warn(OwnershipProblems.LEAVES_WITH_OPEN_CLAIMS, config.memberId(), config.group(), claims.size());
                return CompletableFuture.completedFuture(false);
            }
            if (config.releaseTimeout().isNegative()) {
                return CompletableFuture.completedFuture(false);
            }
            return loop.deregister(config.releaseTimeout());
        }).thenCompose(deregistered -> {
            loop.stop();
            return elector.closeAsync();
        }).whenComplete((v, e) -> {
            releaseResources.run();
            done.complete(null);
        });
    }
}
