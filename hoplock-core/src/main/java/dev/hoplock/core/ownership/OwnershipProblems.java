package dev.hoplock.core.ownership;

import org.jspecify.annotations.Nullable;

/**
 * The texts of an {@link OwnershipGroup}'s refusals, exceptions, problem events and warnings, built in one place (as
 * {@code ProblemMessages} does for the elector and {@code LockProblems} for the named locks) so that their wording
 * (what happened, what it means, the fix) stays consistent.
 *
 * <p>Guarantees: every text names the group or the registry key; none contains a credential (only group and member
 * names, process ids, epochs and durations). Pure functions.
 */
final class OwnershipProblems {

    private OwnershipProblems() {
    }

    // ------------------------------------------------------------------ bad input (the caller's fix)

    static String emptyGroup() {
        return "the ownership group name is empty: name the set of instances that share keys, for example 'billing'";
    }

    static String groupNotUsable(String group, IllegalArgumentException cause) {
        return "group '" + group + "' is not usable in a lease key: " + cause.getMessage();
    }

    static String closed(String group) {
        return "ownership group '" + group + "' is closed; build a new one";
    }

    // ------------------------------------------------------------------ the store (problem events)

    static String registryDisappeared(String registryKey) {
        return "the registry " + registryKey + " disappeared (deleted outside hoplock?); no key is owned until it has"
                + " stayed absent for a TTL and is re-created";
    }

    static String registryUnreadable(String registryKey, IllegalArgumentException cause) {
        return "the registry " + registryKey + " cannot be read: " + cause.getMessage() + "; no key is owned until it"
                + " is fixed (delete it with every instance stopped)";
    }

    /** The registry read answered bytes that are not one whole version (rules M2 to M4 need one the store held). */
    static String registryTorn(String registryKey, RegistrySeal.TornRegistryException cause) {
        return "a read of the registry " + registryKey + " was answered torn: " + cause.getMessage()
                + " and the registry read again; the view is not re-confirmed by it (a store that keeps doing this"
                + " serves reads that are not atomic)";
    }

    static String epochWentBack(long from, long to) {
        return "the registry's epoch went back from " + from + " to " + to + " (re-created after a deletion?); fencing"
                + " tokens may repeat across this reset";
    }

    static String registryReplaced(long epoch) {
        return "the registry at epoch " + epoch + " is not the one this member adopted at that epoch (re-created after"
                + " a deletion, or written outside hoplock?): it stops acting under its old view at once and treats"
                + " this one as a new view; fencing tokens may repeat across this reset";
    }

    static String registryRecreated(long from, long to) {
        return "the registry was re-created (another incarnation, epoch " + to + " after " + from + "; deleted outside"
                + " hoplock?): a new view, fencing tokens may repeat across this reset";
    }

    static String registrationReplaced(String memberId, String otherProcess) {
        return "member '" + memberId + "' replaced the registration of another process (" + otherProcess + ") at a"
                + " lease generation not below its own (the member lease deleted and re-created outside hoplock? two"
                + " processes with one member id?): it acts on gained keys only after a whole TTL";
    }

    static String storeRefused(String memberKey) {
        return "the store was refused for this member (its reason and fix are in the error logged for the member"
                + " lease '" + memberKey + "'): it sends no registry request and owns nothing";
    }

    static String loopFailed(Throwable failure) {
        return "the membership loop failed: " + failure;
    }

    static String membersUnknown(String group, @Nullable String lastProblem) {
        return "the members of group '" + group + "' are not known now" + (lastProblem == null
                ? " (not read yet, or the store could not be reached within the TTL)" : ": " + lastProblem);
    }

    // ------------------------------------------------------------------ warnings (log text, '{}' placeholders)

    /** Arguments: member id, group, number of open claims. */
    static final String LEAVES_WITH_OPEN_CLAIMS = "hoplock: member '{}' leaves group '{}' with {} claim(s) still open:"
            + " it neither deregisters nor releases its lease, the keys move once it has expired";

    /** Arguments: member id, group. */
    static final String LEAVE_NOT_FINISHED = "hoplock: member '{}' of group '{}' did not finish leaving in time";
}
