package dev.hoplock.core.ownership;

import dev.hoplock.core.election.Elector;
import dev.hoplock.core.internal.runtime.EngineRuntime;

import java.util.concurrent.Executor;

/**
 * The member's liveness lease, whose term rule M1 requires: an {@link Elector} on {@code <group>/members/<id>} with the
 * group's validated settings, on the group's scheduler and event executor.
 *
 * <p>Guarantees: the elector runs with exactly the settings {@link GroupConfig} validated (the same TTL, intervals,
 * request timeout, safety margin and release timeout), the group's time source, and the I/O executor only when one was
 * given (the elector creates its own otherwise).
 */
final class LivenessElector {

    private LivenessElector() {
    }

    static Elector build(OwnershipGroup.Builder b, GroupConfig config, EngineRuntime runtime) {
        String leaseKey = MemberKeys.memberKey(config.group(), config.memberId());
        Elector.Builder eb = b.runtime.onBackend(backend -> Elector.builder(backend, leaseKey),
                backend -> Elector.builder(backend, leaseKey));
        eb.owner(config.owner()).ttl(config.ttl()).renewInterval(config.renewInterval())
                .pollInterval(config.pollInterval()).requestTimeout(config.requestTimeout())
                .safetyMargin(config.safetyMargin()).releaseTimeout(config.releaseTimeout()).timeSource(runtime.time())
                .scheduler(runtime.scheduler()).eventExecutor(runtime.eventExecutor());
        Executor io = b.runtime.ioExecutor();
        if (io != null) {
            eb.ioExecutor(io);
        }
        if (b.electorCustomizer != null) {
            b.electorCustomizer.accept(eb);
        }
        return eb.build();
    }
}
