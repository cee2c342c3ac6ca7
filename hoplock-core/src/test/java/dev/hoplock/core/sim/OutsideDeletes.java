package dev.hoplock.core.sim;

import java.time.Duration;

/**
 * When a simulation may delete a lease record from outside (an operator, a bucket lifecycle rule), shared by the
 * elector simulation ({@link Simulation}), the lock simulation ({@link LockSimulation}) and the membership simulation
 * ({@link MembershipSimulation}: the registry, with "present" for its holder, and member leases) so that all use one
 * condition.
 *
 * <p>A delete is detected, not prevented: only a process that saw the record held can know that it disappeared, and a
 * process that never saw it takes the free key at once (as documented). So a delete is a fair fault only when
 * <ol>
 *   <li>every other living process last saw the record held by its holder now ({@link #everyOtherSaw}), where a
 *       sighting is a read answered within its request's bound ({@link #isSighting}) or a write of its own that the store
 *       confirmed, and</li>
 *   <li>no process starts for a TTL after it ({@link #noStartsUntil}).</li>
 * </ol>
 */
final class OutsideDeletes {

    /** One living process as the delete's precondition sees it. */
    record Witness(String owner, String lastSeenOwner) {
    }

    private OutsideDeletes() {
    }

    /** Whether every witness other than {@code holder} itself last saw the record held by {@code holder}. */
    static boolean everyOtherSaw(String holder, Iterable<Witness> living) {
        for (Witness w : living) {
            if (!w.owner().equals(holder) && !w.lastSeenOwner().equals(holder)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether a read answer counts as a sighting: an answer later than the request's bound was abandoned by the engine
     * (it timed out first), so the process never saw what it says.
     */
    static boolean isSighting(long sentLocalNanos, long answeredLocalNanos, Duration timeout) {
        return answeredLocalNanos - sentLocalNanos < timeout.toNanos();
    }

    /** The shared instant before which no process may start after a delete at {@code nowNanos}: a TTL and a tenth. */
    static long noStartsUntil(long nowNanos, long ttlNanos) {
        return nowNanos + ttlNanos * 11 / 10;
    }
}
