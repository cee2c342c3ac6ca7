package dev.hoplock.core.ownership;

import dev.hoplock.core.election.Elector;
import dev.hoplock.core.internal.runtime.EngineRuntime;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The running parts of one {@link OwnershipGroup}, wired together once, and their lifecycle: start (the liveness lease
 * and the membership loop) and leave (rule M7, through {@link Departure}). The facade answers from these parts.
 */
final class GroupEngine {

    private static final Logger log = LoggerFactory.getLogger(OwnershipGroup.class);

    private final GroupConfig config;
    final Elector elector;
    final MembershipLoop loop;
    final ClaimBook claims;
    final ActingGate gate;
    final GroupEvents events;
    private final Departure departure;
    private @Nullable CompletableFuture<Void> closed;
    private boolean started;

    GroupEngine(OwnershipGroup.Builder b, GroupConfig config) {
        this.config = config;
        String group = config.group();
        EngineRuntime runtime = b.runtime.start(new EngineRuntime.ThreadNames("hoplock-membership-" + group,
                "hoplock-membership-io-" + group, "hoplock-membership-events-" + group,
                "hoplock-membership-fallback-" + group));
        this.events = new GroupEvents(runtime.eventExecutor());
        this.elector = LivenessElector.build(b, config, runtime);
        this.claims = new ClaimBook(() -> {
        });
        this.loop = new MembershipLoop(config, runtime.backend(), runtime.time(), runtime.scheduler(), elector, claims,
                events);
        this.gate = new ActingGate(config, loop, elector, runtime.time());
        loop.watchActing(gate::isMember, gate::leaving);
        this.departure = new Departure(config, gate, claims, runtime.scheduler(), loop, elector, runtime::close);
    }

    /** Starts the liveness lease and the membership loop. Idempotent. */
    synchronized void start() {
        if (closed != null) {
            throw new IllegalStateException(OwnershipProblems.closed(config.group()));
        }
        if (started) {
            return;
        }
        started = true;
        loop.followLease();
        elector.start();
        loop.start();
        log.info("hoplock: member '{}' ({}) started in ownership group '{}' (ttl {})", config.memberId(),
                config.owner(), config.group(), config.ttl());
    }

    /** Rule M7 ({@link Departure}): see {@link OwnershipGroup#closeAsync()}. Completes when done; never fails. */
    CompletableFuture<Void> closeAsync() {
        CompletableFuture<Void> done;
        synchronized (this) {
            if (closed != null) {
                return closed;
            }
            done = closed = new CompletableFuture<>();
        }
        departure.leave(done);
        return done;
    }

    /** {@link #closeAsync()} and waits for it, bounded. */
    void close() {
        long bound = config.requestTimeout().plus(config.releaseTimeout().abs().multipliedBy(3)).toMillis() + 5_000;
        try {
            closeAsync().get(bound, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            log.warn(OwnershipProblems.LEAVE_NOT_FINISHED, config.memberId(), config.group());
        }
    }
}
