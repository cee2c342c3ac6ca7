package dev.hoplock.core.lock;

import java.time.Duration;

/**
 * L7, the fair mode's turn-taking (a liveness rule with one safety side), in one place: whether an attempt that could
 * take a name now yields its turn instead. {@link LockTakeover} asks it at every attempt ({@code yieldsTurn}) with a
 * turn window above zero ({@link NamedLocks.Builder#fairTurn(Duration)},
 * {@link Locks#tryAcquire(String, Duration, Duration)}); without one it is never asked.
 *
 * <p>The engine's rule is {@link #TURNS}: an attempt yields when (a) this instance holds nothing under the name, (b)
 * its last acquisition of the name ended (released, or its validity over) less than the turn window ago, and (c) it has
 * not yielded on the version it found already, and (d) it is not <em>quiet</em>: an instance is quiet for
 * {@link #QUIET_TURNS} turn windows after a yield on its own record that nobody took (a later attempt found that
 * version, of its own last acquisition, unchanged: no other instance acquired the name since), as long as no other
 * instance acquires the name meanwhile. Yielding means: when the version found is its own ended record (left
 * to expire, for example by {@code @WithLock}'s {@code lockAtLeastFor}), it writes the release of L4 on it (others
 * may take a released record at once, but an unreleased one only after E4's observation); then it answers
 * {@link AcquireResult.HeldByAnother} with a {@code retryAfter} of at most the time left in its window. A later
 * attempt that finds the same version (nobody took the name meanwhile) takes it by the default rules. So a turn is
 * given away only to an instance that asks while it is given, and no attempt is refused for ever; an instance alone
 * loses one attempt, then runs every attempt while quiet and loses one more per {@link #QUIET_TURNS} windows, when it
 * looks whether another instance has come (a waiting {@link Locks#acquire} loses at most one retry per yield). An
 * instance that never wins is seen by nobody: (d) bounds how long the others may stay quiet while it asks.
 *
 * <p>Safety: the rule can only turn "take it now" into "not yet"; every acquisition still goes through E4/L3's
 * decision and a conditional write. Its one write, the release of a yielded record, is made only by an instance
 * that holds nothing under the name (a). A rule that yielded while holding would release a record whose acquisition
 * still counts as held here, and another instance would take it at once: two holders. The lock simulation plants that
 * defect through this seam ({@code LockSimulationSeams.yieldWhileHolding}) to show that its checker catches it.
 * <p>Implements L7 (the engine's rule, {@link #TURNS}); text in {@link dev.hoplock.core.lock}.
 */
@FunctionalInterface
interface LockTurnRule {

    /** How many turn windows an instance stays quiet (d) after a yield that nobody took. */
    int QUIET_TURNS = 10;

    /** The engine's rule: see the class comment. */
    LockTurnRule TURNS = (turn, holding, sinceLastEndNanos, alreadyYieldedOnThisVersion, quietForNanos) -> !holding
            && !turn.isZero() && !turn.isNegative() && sinceLastEndNanos >= 0 && sinceLastEndNanos < turn.toNanos()
            && !alreadyYieldedOnThisVersion
            && !(quietForNanos >= 0 && quietForNanos / QUIET_TURNS < turn.toNanos());

    /**
     * @param turn                        the turn window of the attempt (zero: the default mode, never yields)
     * @param holding                     whether this instance holds the name now (the attempt would extend it)
     * @param sinceLastEndNanos           monotonic nanoseconds since this instance's last acquisition of the name
     *                                    ended; negative when it never held it
     * @param alreadyYieldedOnThisVersion whether this instance already yielded on the version the attempt found
     * @param quietForNanos               monotonic nanoseconds since this instance's last yield that nobody took, when
     *                                    no other instance acquired the name since; negative otherwise
     * @return whether the attempt yields its turn (writing the release of its own ended record, if that is what it
     *         found) instead of taking the name
     */
    boolean yields(Duration turn, boolean holding, long sinceLastEndNanos, boolean alreadyYieldedOnThisVersion,
                   long quietForNanos);
}
