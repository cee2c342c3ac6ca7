package dev.hoplock.core.ownership;

import dev.hoplock.core.Elector;

import java.util.Objects;

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

    static Elector build(OwnershipGroup.Builder b, GroupConfig config, GroupThreads threads) {
        String leaseKey = MemberKeys.memberKey(config.group(), config.memberId());
        Elector.Builder eb = b.backend != null ? Elector.builder(b.backend, leaseKey)
                : Elector.builder(Objects.requireNonNull(b.asyncBackend, "backend"), leaseKey);
        eb.owner(config.owner()).ttl(config.ttl()).renewInterval(config.renewInterval())
                .pollInterval(config.pollInterval()).requestTimeout(config.requestTimeout())
                .safetyMargin(config.safetyMargin()).releaseTimeout(config.releaseTimeout()).timeSource(b.time)
                .scheduler(threads.scheduler()).eventExecutor(threads.eventExecutor());
        if (b.ioExecutor != null) {
            eb.ioExecutor(b.ioExecutor);
        }
        if (b.electorCustomizer != null) {
            b.electorCustomizer.accept(eb);
        }
        return eb.build();
    }
}
