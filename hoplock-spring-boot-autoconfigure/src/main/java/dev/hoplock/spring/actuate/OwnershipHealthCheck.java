package dev.hoplock.spring.actuate;

import dev.hoplock.spring.ownership.HoplockOwnership;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The health of this instance's membership in the ownership group, computed without Spring Boot types so that every
 * Boot generation reports the same status and details ({@code OwnershipHealthIndicator} of each generation turns it
 * into Boot's {@code Health}, as {@link ElectionHealthCheck} does for an election):
 * <ul>
 *   <li><b>UP</b>: registered under its current membership lease, the view confirmed within the TTL (it may own
 *       keys);</li>
 *   <li><b>UNKNOWN</b>: joining, or the view could not be confirmed within the TTL (a store outage): it owns no key
 *       then (fail closed). UNKNOWN, not DOWN, for the reason the elections use: every instance sees the same outage
 *       and the aggregate health stays UP;</li>
 *   <li><b>OUT_OF_SERVICE</b>: the group was left (shutdown).</li>
 * </ul>
 * Details: reason (unless UP), group, self, state, epoch, the members with their state, keysSeen, shareOfKeysSeen
 * ({@link OwnershipDescriptor}). Local state only; no secret.
 */
public final class OwnershipHealthCheck {

    private final HoplockOwnership ownership;

    public OwnershipHealthCheck(HoplockOwnership ownership) {
        this.ownership = ownership;
    }

    /** Assesses the membership now. */
    public ElectionHealthCheck.Assessment assess() {
        OwnershipDescriptor state = OwnershipDescriptor.of(ownership, ownership.isClosed());
        Map<String, Object> details = new LinkedHashMap<>();
        ElectionHealthCheck.Status status = switch (state.state()) {
            case "member" -> ElectionHealthCheck.Status.UP;
            case "left" -> {
                details.put("reason", "left the group (shutdown)");
                yield ElectionHealthCheck.Status.OUT_OF_SERVICE;
            }
            default -> {
                details.put("reason", "not a member now: joining, or the membership could not be confirmed with the"
                        + " store within the TTL; no key is owned meanwhile");
                yield ElectionHealthCheck.Status.UNKNOWN;
            }
        };
        details.put("group", state.group());
        details.put("self", state.self());
        details.put("state", state.state());
        details.put("epoch", state.epoch() == null ? "unknown" : state.epoch());
        details.put("members", state.members());
        details.put("keysSeen", state.keysSeen());
        details.put("shareOfKeysSeen", state.shareOfKeysSeen());
        return new ElectionHealthCheck.Assessment(status, Collections.unmodifiableMap(details));
    }
}
