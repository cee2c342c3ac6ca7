package dev.hoplock.core.lock;

import dev.hoplock.core.internal.lease.Observation;
import dev.hoplock.core.internal.lease.TakeoverDecision;
import dev.hoplock.core.time.Scheduler;

import java.time.Duration;

/**
 * Package-private settings of {@link NamedLocks.Builder} that the lock simulation ({@code dev.hoplock.core.sim}) needs:
 * test code only, so that nothing of the public API exists for the simulation's sake.
 */
public final class LockSimulationSeams {

    private LockSimulationSeams() {
    }

    /**
     * Where the engine runs a timer that its scheduler refused. The simulation passes a scheduler on the process's own
     * virtual clock, so that no real thread (the default fallback) ever runs simulated code.
     */
    public static NamedLocks.Builder fallbackScheduler(NamedLocks.Builder builder, Scheduler fallback) {
        return builder.fallbackScheduler(fallback);
    }

    /**
     * Plants issue 19's defect 8, against rule 1 (E1, validity anchored before the write): an extension keeps the later
     * of the acquisition's monotonic deadline and the renewal's own, so an extension with a shorter TTL leaves the
     * longer deadline standing (while it is in flight and after it answered). After a backward wall step on the holder
     * (which disarms the wall-clock bound), the holder still counts itself holding while a taker using the short TTL
     * holds the lock. The simulation's checker must catch it; it needs extensions with a shorter TTL and backward wall
     * steps to be able to.
     */
    public static NamedLocks.Builder keepLaterDeadline(NamedLocks.Builder builder) {
        return builder.extensionRule((held, written) -> written - held > 0 ? written : held);
    }

    /**
     * Plants issue 19's adoption-TTL finding, against rule 5 with rule 1 (E1, validity anchored before the write): an
     * adopted write of unknown outcome is counted with the TTL the adopting call asks for, not the TTL it was written
     * with (what the engine did before the fix once it had forgotten that write's TTL, after more than 31 later writes
     * of the name). A refused long extension, or a long acquisition attempt, that adopts a short write then counts a
     * long validity from the short write's {@code t0}. After a backward wall step on the holder (which disarms the
     * wall-clock bound, the record's own expiry), the holder still counts itself holding while a taker using the short
     * TTL holds the lock.
     */
    public static NamedLocks.Builder adoptWithTheTtlAskedFor(NamedLocks.Builder builder) {
        return builder.adoptionRule((adopted, asked) -> asked);
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
     * Plants the defect L7 (the fair mode's turns, {@link LockTurnRule}) excludes: the turn rule yields also while this
     * instance holds the name, so an extension attempt within the turn window releases the record (L4's write,
     * conditional on its own version: it lands) while the acquisition still counts as held here; another instance
     * takes the released record at once: two holders. The planted rule leaves out the quiet condition (d) too: with
     * it, an instance that holds a name within its window has always just found a yield of its own untaken, so is
     * quiet, and (a) is never reached. The simulation's checker must catch it; it needs fair-mode processes that
     * extend a lock they hold within their turn window to be able to.
     */
    public static NamedLocks.Builder yieldWhileHolding(NamedLocks.Builder builder) {
        return builder.turnRule((turn, holding, since, already, quietFor) -> !turn.isZero() && since >= 0
                && since < turn.toNanos() && !already);
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
