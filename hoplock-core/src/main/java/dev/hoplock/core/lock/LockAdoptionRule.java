package dev.hoplock.core.lock;

import dev.hoplock.core.internal.lease.UnknownWrites;

import java.time.Duration;

/**
 * Rule 5 (unknown outcomes) with rule 1 (E1, validity anchored before the write) for named locks: the TTL an adopted
 * write of unknown outcome is counted with. The engine's rule is {@link #WRITTEN}: the TTL that write was written with,
 * kept with it ({@link UnknownWrites.Write#ttl()}), whatever TTL the call that finds it asks for (the calls of one name
 * may ask for different TTLs, and a refused long extension may adopt an earlier, shorter write). {@link LockTakeover}
 * asks it in {@code adoptFound}.
 *
 * <p>A seam, package-private, like {@link LockExtensionRule}: the lock simulation plants the defect of counting the TTL
 * asked for (issue 19's adoption-TTL finding) through it, to show that its checker catches that. It guarantees nothing
 * on its own.
 * <p>Implements L2 (the engine's rule, {@link #WRITTEN}); text in {@link dev.hoplock.core.lock}.
 */
@FunctionalInterface
interface LockAdoptionRule {

    /** The engine's rule: the adopted write's own TTL. */
    LockAdoptionRule WRITTEN = (adopted, asked) -> adopted.ttl();

    /**
     * @param adopted the write of unknown outcome that a read proved ours
     * @param asked   the TTL the call that read it asks for
     * @return the TTL the adopted acquisition's validity counts (from the write's {@code t0})
     */
    Duration ttl(UnknownWrites.Write adopted, Duration asked);
}
