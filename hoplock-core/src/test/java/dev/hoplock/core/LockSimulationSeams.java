package dev.hoplock.core;

import dev.hoplock.core.lock.LockHandle;

import java.time.Duration;

/**
 * Package-private settings of {@link NamedLocks.Builder} that the lock simulation ({@code dev.hoplock.core.sim}) needs:
 * test code only, so that nothing of the public API exists for the simulation's sake.
 */
public final class LockSimulationSeams {

    private LockSimulationSeams() {
    }

    /**
     * Plants the bug the takeover rule exists to prevent: a lock held by another owner is taken as soon as its record's
     * {@code expires_at} has passed by the local wall clock, without the TTL of local observation (what a
     * wall-clock-trusting lock does). The simulation's checker must catch it.
     */
    public static NamedLocks.Builder trustExpiresAt(NamedLocks.Builder builder) {
        return builder.takeoverRule((seen, highestGeneration, nowNanos, wallNow, observeFor, poll) -> {
            if (seen instanceof Observation.Present present && present.record() != null
                    && !present.record().isReleased() && present.record().isExpiredAt(wallNow)) {
                long next = TakeoverDecision.nextGeneration(highestGeneration);
                if (next > 0) {
                    return new TakeoverDecision.Acquire(present.handle(), next,
                            TakeoverDecision.Why.EXPIRED_AND_UNCHANGED);
                }
            }
            return TakeoverDecision.decide(seen, highestGeneration, nowNanos, wallNow, observeFor, poll);
        });
    }

    /**
     * The TTL the acquisition behind {@code handle} was last written with (its keep-alive renews with it). The lock
     * simulation needs it to keep a wall-clock step fair in a schedule with mixed TTLs: a machine whose wall clock is
     * behind may write only the shortest TTL of the schedule.
     */
    public static Duration ttlOf(LockHandle handle) {
        return ((LockHold) handle).ttl();
    }
}
