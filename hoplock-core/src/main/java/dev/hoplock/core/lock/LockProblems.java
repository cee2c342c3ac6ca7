package dev.hoplock.core.lock;

import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.lock.AcquireResult;
import dev.hoplock.core.lock.LockEvent;
import dev.hoplock.core.time.HumanDurations;
import org.jspecify.annotations.Nullable;
import org.slf4j.LoggerFactory;

import java.time.Duration;

/**
 * The texts of the named locks' refusals, exceptions and warnings, built in one place (as
 * {@link dev.hoplock.core.election.ProblemMessages} does for the elector) so that their wording (what happened, what it
 * means, the fix) stays consistent.
 *
 * <p>Guarantees: every text names the lock; none contains a credential (only names, owners, tokens, instants,
 * durations and the store's {@code describe()}, which backends keep free of secrets). The builders are pure functions;
 * the warnings log under the {@link NamedLocks} logger, as they always did.
 */
final class LockProblems {

    private static final org.slf4j.Logger log = LoggerFactory.getLogger(NamedLocks.class);

    private LockProblems() {
    }

    // ------------------------------------------------------------------ bad input (the caller's fix)

    static String invalidName(String name, IllegalArgumentException cause) {
        return "invalid lock name '" + name + "': use segments of letters, digits, '.', '_' or '-' separated by single"
                + " '/' (" + cause.getMessage() + ")";
    }

    static String invalidTtl(Duration ttl) {
        return "lock ttl must be above 0 and at most 7 days, was " + HumanDurations.format(ttl) + "; choose how long one"
                + " execution may hold the lock without renewing it, for example 30s";
    }

    static String minimumTtl(Duration minimum, Duration requestTimeout, double safetyFraction) {
        return HumanDurations.format(minimum) + ": the time a write is given to land (the request timeout, "
                + HumanDurations.format(requestTimeout) + ", at most " + HumanDurations.format(NamedLocks.MIN_WRITE_TIME)
                + ") plus the safety margin (" + Math.round(safetyFraction * 100) + "%)";
    }

    static String minimumTtlFix() {
        return "a lock with a shorter ttl could never be acquired; choose a longer ttl";
    }

    static String lostDuringTask(String name, long token, LockEvent.Lost loss, Exception failure) {
        return "the lock '" + name + "' (token " + token + ") was lost while the task ran: " + loss.cause() + " ("
                + loss.detail() + "); the task then ended with " + failure;
    }

    static String negativeMaxWait(String name, Duration maxWait) {
        return "maxWait for the lock '" + name + "' must not be negative: " + HumanDurations.format(maxWait)
                + "; use zero to try once";
    }

    static String closed() {
        return "these named locks are closed; build a new NamedLocks";
    }

    static String blankOwner() {
        return "the lock owner id must not be blank; leave it unset for one id per process (host:pid:random)";
    }

    static String keyPrefixWithoutSlash(String keyPrefix) {
        return "the lock key prefix '" + keyPrefix + "' must end with '/' (or be empty), for example 'locks/'";
    }

    static String safetyFraction(double fraction) {
        return "safetyMargin (a share of each ttl) must be between 0 and 0.5, was " + fraction
                + "; the default is 0.1";
    }

    static String invalidTurn(Duration turn) {
        return "fairTurn must be zero (no fair mode) or above zero and at most 7 days, was "
                + HumanDurations.format(turn) + "; for example the interval of one instance's calls times the number"
                + " of instances less one";
    }

    static String notPositive(String setting, Duration value) {
        return setting + " must be above 0, was " + HumanDurations.format(value);
    }

    static String keepAliveNotHeld(String name, long token) {
        return "keepAlive needs a held lock, but the lock '" + name + "' (token " + token + ") is released, lost or"
                + " expired: acquire it first";
    }

    static String keepAliveMargin(String name, Duration margin, Duration ttl, Duration safety) {
        return "keep-alive margin " + HumanDurations.format(margin) + " for the lock '" + name + "' must be below its"
                + " TTL (" + HumanDurations.format(ttl) + ") and above its safety margin (" + HumanDurations.format(safety)
                + "): a renewal must be sent before the lock stops being usable; for example use a third of the TTL";
    }

    // ------------------------------------------------------------------ refusals of withLock

    static String alreadyRunning(String name, long token) {
        return "the lock '" + name + "' is already held by this instance (token " + token + "): an execution in this"
                + " process is running";
    }

    static String describeRefusal(AcquireResult answer) {
        if (answer instanceof AcquireResult.HeldByAnother held && held.holder().isEmpty()
                && held.expiresAt() != null) {
            // Only a yielded turn (L7) leaves a released record untaken.
            return "the lock '" + held.name() + "' is released (token " + held.token() + "), but this instance held"
                    + " it less than its fair turn ago and lets another instance take it first (it takes it at its next"
                    + " attempt if nobody did)";
        }
        if (answer instanceof AcquireResult.HeldByAnother held) {
            return "the lock '" + held.name() + "' is held by " + (held.holder().isEmpty() ? "an unknown owner"
                    : "'" + held.holder() + "'") + " (token " + held.token() + ")"
                    + (held.expiresAt() == null ? "" : ", expiring at " + held.expiresAt() + " by its clock");
        }
        if (answer instanceof AcquireResult.Unavailable unavailable) {
            return "the lock '" + unavailable.name() + "' could not be taken: " + unavailable.cause().getMessage();
        }
        return "the lock '" + answer.name() + "' was not taken";
    }

    // ------------------------------------------------------------------ "unavailable" answers (rules 0, 1, 5)

    /** Rule 0: the store could not be asked whether it is capable (a refusal is its own exception). */
    static BackendException notVerified(String store, String name, Throwable cause) {
        return new BackendException(BackendException.Kind.TRANSIENT, "could not verify " + store
                + " before taking the lock '" + name + "': " + cause, cause);
    }

    /** Rule 1: the write's answer came after the validity it would give. */
    static BackendException answerAfterValidity(String name, Duration ttl) {
        return new BackendException(BackendException.Kind.TRANSIENT, "the store's answer for the lock '" + name
                + "' came after its validity (" + HumanDurations.format(ttl) + " minus the safety margin) had passed;"
                + " try again");
    }

    /** Rule 5: a write of ours of unknown outcome landed after its acquisition had ended. */
    static BackendException lateEarlierWrite(String name) {
        return new BackendException(BackendException.Kind.TRANSIENT, "an earlier write of this process to the lock '"
                + name + "' landed late; try again");
    }

    static BackendException noLongerHeld(String name) {
        return new BackendException(BackendException.Kind.TRANSIENT, "the lock '" + name + "' is no longer held");
    }

    // ------------------------------------------------------------------ loss details (LockEvent.Lost)

    static String renewalRefused(String store) {
        return "a renewal was refused by " + store + ": the record changed or is gone";
    }

    static String renewalRefusedNotOurs(String store) {
        return "a renewal was refused by " + store + " and the record is not ours";
    }

    static String deadlinePassed(boolean keepAliveFailed) {
        return keepAliveFailed ? "no renewal succeeded before the local deadline"
                : "the local deadline passed without keep-alive";
    }

    // ------------------------------------------------------------------ warnings

    static void warnCorrupt(String store, String name, @Nullable String why) {
        log.warn("hoplock: the record of the lock '{}' in {} is corrupt ({}); it counts as held and is taken over only"
                + " after staying unchanged for a TTL", name, store, why);
    }

    static void warnRegressed(String name, long highest, long seen) {
        log.warn("hoplock: the fencing token of the lock '{}' went down from {} to {}: the record was deleted or"
                + " rewritten outside hoplock; new acquisitions continue above {}", name, highest, seen, highest);
    }
}
