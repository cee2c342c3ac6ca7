package dev.hoplock.spring.actuate;

import dev.hoplock.spring.ownership.HoplockOwnership;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The health of this instance's membership in the ownership group:
 * <ul>
 *   <li><b>UP</b>: registered under its current membership lease, the view confirmed within the TTL (it may own
 *       keys);</li>
 *   <li><b>UNKNOWN</b>: joining, or the view could not be confirmed within the TTL (a store outage): it owns no key
 *       then (fail closed). UNKNOWN, not DOWN, for the reason the elections use: every instance sees the same outage
 *       and the aggregate health stays UP;</li>
 *   <li><b>OUT_OF_SERVICE</b>: the group was left (shutdown).</li>
 * </ul>
 * Details: group, self, state, epoch, the members with their state, keysSeen, shareOfKeysSeen
 * ({@link OwnershipDescriptor}). Local state only; no secret.
 */
public final class OwnershipHealthIndicator implements HealthIndicator {

    private final HoplockOwnership ownership;

    public OwnershipHealthIndicator(HoplockOwnership ownership) {
        this.ownership = ownership;
    }

    @Override
    public Health health() {
        OwnershipDescriptor state = OwnershipDescriptor.of(ownership, ownership.isClosed());
        Health.Builder health = switch (state.state()) {
            case "member" -> Health.up();
            case "left" -> Health.outOfService().withDetail("reason", "left the group (shutdown)");
            default -> Health.unknown().withDetail("reason", "not a member now: joining, or the membership could"
                    + " not be confirmed with the store within the TTL; no key is owned meanwhile");
        };
        return health.withDetail("group", state.group())
                .withDetail("self", state.self())
                .withDetail("state", state.state())
                .withDetail("epoch", state.epoch() == null ? "unknown" : state.epoch())
                .withDetail("members", state.members())
                .withDetail("keysSeen", state.keysSeen())
                .withDetail("shareOfKeysSeen", state.shareOfKeysSeen())
                .build();
    }
}
