package dev.hoplock.core.election;

import dev.hoplock.core.time.HumanDurations;

import org.jspecify.annotations.Nullable;
import java.time.Duration;
import java.time.Instant;

/**
 * The long texts of the elector's {@link ElectionEvent.Problem}s, built in one place so that their wording (what
 * happened, what it means for safety, the fix) stays consistent and each stays reviewable beside the others.
 *
 * <p>Guarantees: every text names the lease key; none contains a credential (only the key, owners, generations,
 * instants, durations and the store's {@code describe()}, which backends keep free of secrets). Pure functions.
 */
final class ProblemMessages {

    private ProblemMessages() {
    }

    /** An owner as shown in messages: quoted, or "an unnamed owner" for the empty owner. */
    static String describeOwner(String owner) {
        return owner.isEmpty() ? "an unnamed owner" : "'" + owner + "'";
    }

    /** {@link ElectionEvent.ProblemKind#RECORD_DELETED}: rule 4's absence, after the key was held by {@code heldBy}. */
    static String recordDeleted(String key, String store, String heldBy, Duration ttl) {
        return "the lease record of '" + key + "' in " + store + " disappeared while held by " + heldBy + ": it was"
                + " deleted outside hoplock (or released by a delete, as Go hoplock and releaseByDelete do). Its holder"
                + " may still lead, so the key counts as held until it has stayed absent for at least "
                + HumanDurations.format(ttl) + " on this machine's clock and the expiry it showed has passed. Deletion is"
                + " detected, not prevented: do not delete the lease object of a running election";
    }

    /** {@link ElectionEvent.ProblemKind#CORRUPT_RECORD}: a record that cannot be parsed. */
    static String corruptRecord(String key, String store, String corruption, Duration ttl) {
        return "the lease record of '" + key + "' in " + store + " is corrupt: " + corruption + ". It counts as held;"
                + " it is taken over only after staying unchanged for " + HumanDurations.format(ttl) + ". Fix: delete"
                + " the object, or let hoplock replace it.";
    }

    /** {@link ElectionEvent.ProblemKind#CORRUPT_RECORD}: a record at the largest generation (rule 6). */
    static String maxGeneration(String key, String store) {
        return "the lease record of '" + key + "' in " + store + " has generation " + Long.MAX_VALUE + ", the largest"
                + " fencing token there is: no node can take it over without breaking fencing, so none will. Fix:"
                + " delete the object once its holder has stopped (generations then restart at 1; reset what downstream"
                + " systems remember of fencing tokens)";
    }

    /** {@link ElectionEvent.ProblemKind#GENERATION_REGRESSED}: a generation below one seen before. */
    static String generationRegressed(String key, long highest, long seen) {
        return "the generation of '" + key + "' went down from " + highest + " to " + seen + ": the record was deleted"
                + " or rewritten outside hoplock (or a node releases by delete); new terms continue above " + highest;
    }

    /** {@link ElectionEvent.ProblemKind#CLOCK_SKEW}: a record expiring more than twice the TTL ahead of this clock. */
    static String clockSkew(String key, String owner, long generation, Instant expiresAt, Instant now, Duration ttl) {
        return "the lease record of '" + key + "' written by " + describeOwner(owner) + " at generation " + generation
                + " expires at " + expiresAt + ", " + HumanDurations.format(Duration.between(now, expiresAt))
                + " from now by this machine's clock, more than twice the TTL (" + HumanDurations.format(ttl) + "): the"
                + " writer's clock runs ahead or its TTL is longer. No node takes the lease over before that instant by"
                + " its own clock. Fix: correct the writer's clock (NTP) or TTL; if that writer is gone, delete the"
                + " object";
    }

    /** {@link ElectionEvent.ProblemKind#BACKEND_ERROR}: an unexpected exception inside the loop. */
    static String internalError(String key, String activity, RuntimeException error, Duration poll, String store) {
        return "internal error in the elector of '" + key + "' while " + activity + " (" + error + "); it retries after "
                + HumanDurations.format(poll) + ". This is a bug in hoplock or in the backend (" + store + "): please"
                + " report it";
    }

    /** {@link ElectionEvent.ProblemKind#SCHEDULER_ERROR}: the scheduler refused a timer. */
    static String schedulerRefused(String key, RuntimeException failure) {
        return "the scheduler of the elector of '" + key + "' refused a timer (" + failure + "); the elector runs its"
                + " timers on a fallback thread until the scheduler takes them again. Fix the scheduler given to"
                + " Elector.Builder.scheduler (shut down too early? a bounded queue?) or leave it unset";
    }

    /**
     * {@link ElectionEvent.ProblemKind#CONDITIONAL_WRITES_NOT_SUPPORTED}: rule 0 refused the store; the reason says
     * what the store lacks and why its user needs it.
     */
    static String storeRefused(String key, @Nullable String reason) {
        return "the elector of '" + key + "' never campaigns on its store: " + reason;
    }
}
