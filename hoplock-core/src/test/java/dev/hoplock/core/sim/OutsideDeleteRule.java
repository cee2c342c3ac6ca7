package dev.hoplock.core.sim;

import java.time.Duration;
import java.util.Collection;

/**
 * When a simulation may delete a lease record from outside (an operator, a bucket lifecycle rule), so that the delete
 * tests the protocol rather than a documented limit. One rule for every simulation (the elector's and the
 * membership's).
 *
 * <p>A delete is detected, not prevented: only a process that saw the record held can know that it disappeared
 * (a process that never saw it takes a missing record at once, as documented). So the delete comes only when
 * <ol>
 *   <li>the record is held ({@code holder} not null: a released record is free anyway);</li>
 *   <li>every other living process that competes for the record last saw it held by that holder (a sighting counts
 *       only when its answer came within the request's timeout, or when it was the process's own confirmed write);</li>
 *   <li>no process that competes for the record starts for {@link #holdOff} after it (a new one would take the free
 *       record at once);</li>
 *   <li>and not within {@link #quietBeforeHeal} of the heal (the holder's loss and the new term would fall into the
 *       calm after it, where the liveness bounds are measured).</li>
 * </ol>
 */
final class OutsideDeleteRule {

    /** What one competing process last saw of the record: the owner, or "" (no record, or a released one). */
    record Sighting(String owner, String lastSeenOwner) {
    }

    private OutsideDeleteRule() {
    }

    /** Conditions 1 and 2: the record held by {@code holder} may be deleted now, given what the others saw. */
    static boolean allows(String holder, Collection<Sighting> competitors) {
        if (holder == null || holder.isEmpty()) {
            return false;
        }
        for (Sighting s : competitors) {
            if (!s.owner().equals(holder) && !s.lastSeenOwner().equals(holder)) {
                return false;
            }
        }
        return true;
    }

    /** Condition 3: how long no competing process may start after the delete (a TTL and a tenth, for rate drift). */
    static long holdOff(Duration ttl) {
        return ttl.toNanos() * 11 / 10;
    }

    /** Condition 4: no delete this close before the heal. */
    static long quietBeforeHeal(Duration ttl) {
        return ttl.toNanos() * 2;
    }
}
