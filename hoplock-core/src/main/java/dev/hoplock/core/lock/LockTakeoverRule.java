package dev.hoplock.core.lock;

import dev.hoplock.core.internal.lease.Observation;
import dev.hoplock.core.internal.lease.TakeoverDecision;

import java.time.Duration;
import java.time.Instant;

/**
 * Rule 4 for named locks, as {@link TakeoverDecision#decide(Observation, long, long, Instant, Duration, Duration)}
 * states it (the only implementation outside tests): {@link LockTakeover} asks it whether to take a lock. A seam only
 * so that the simulation can plant a broken rule and show that its checker catches it; it guarantees nothing on its
 * own.
 * <p>The seam of E4 for named locks, with the observation of L3; text in {@link dev.hoplock.core.lock}.
 */
@FunctionalInterface
interface LockTakeoverRule {

    TakeoverDecision.Outcome decide(Observation seen, long highestGeneration, long nowNanos, Instant wallNow,
                                    Duration observeFor, Duration pollInterval);
}
