package dev.hoplock.core.lock;

import dev.hoplock.core.internal.lease.Term;

/**
 * Rule 1 (E1, validity anchored before the write) for the extension of a named lock: the monotonic deadline an
 * acquisition may keep once a renewal's write may have landed. The engine's rule is {@link #EXACT}: exactly what that
 * write guarantees, {@code t0 + ttl - safetyMargin} of the write, whatever the acquisition held before it (a renewal
 * may ask for a shorter TTL). {@link LockHolding} applies it twice, through {@link Term}: when the renewal is sent (the
 * term is bounded by it, {@link Term#boundBy}) and when it answers ({@link Term#extend}).
 *
 * <p>A seam, package-private, like {@link LockTakeoverRule}: the lock simulation plants the defect of keeping the later
 * of the two deadlines (issue 19, defect 8) through it, to show that its checker catches that.
 * <p>Implements L1 (the engine's rule, {@link #EXACT}); text in {@link dev.hoplock.core.lock}.
 */
@FunctionalInterface
interface LockExtensionRule {

    /** The engine's rule: the write's own deadline. */
    LockExtensionRule EXACT = (heldDeadlineNanos, writtenDeadlineNanos) -> writtenDeadlineNanos;

    /**
     * @param heldDeadlineNanos    the monotonic deadline of the last write of the acquisition that answered
     * @param writtenDeadlineNanos the monotonic deadline of the renewal's write, from its own {@code t0} and TTL
     * @return the monotonic deadline the acquisition keeps
     */
    long deadlineNanos(long heldDeadlineNanos, long writtenDeadlineNanos);
}
