package dev.hoplock.core.operations;

import dev.hoplock.core.time.HumanDurations;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.time.Instant;

/**
 * What one read found under a lease key, judged by the clock of the machine that read it.
 *
 * <p>Guarantees: {@link #state()} is one of five; {@code holder}, {@code expiresAt} and {@code expiresIn} are set
 * exactly when a record was decoded ({@code holder} empty for a released record); {@code handle} is set whenever an
 * object was found (also for a corrupt one); {@code problem} is set exactly for {@link State#CORRUPT} and names the key
 * and what is wrong, never more than a short prefix of the content. Immutable; carries no credentials.
 *
 * @param key                the lease key read
 * @param state              what was found
 * @param holder             the {@code owner} of the record ("" when released), or null when no record was decoded
 * @param generation         the record's fencing token (0 when none was decoded)
 * @param expiresAt          {@code expires_at} as the record says (by its writer's wall clock), or null
 * @param expiresIn          {@code expiresAt} minus this machine's wall clock at the read (negative: expired that long
 *                           ago), or null when no record was decoded or it is released
 * @param clockSkewSuspected true when {@code expiresAt} lies more than 2 x TTL ahead of this machine's wall clock: the
 *                           writer's clock runs ahead, or a holder uses a longer TTL than the one given
 * @param handle             the store's version token of what was read, or null when absent
 * @param problem            for {@link State#CORRUPT}: what is wrong; otherwise null
 * @param readAt             this machine's wall clock when the answer arrived
 */
public record LeaseRecordView(String key, State state, @Nullable String holder, long generation,
                              @Nullable Instant expiresAt, @Nullable Duration expiresIn, boolean clockSkewSuspected,
                              @Nullable String handle, @Nullable String problem, Instant readAt) {

    /** What was found under the key. */
    public enum State {
        /** No object under the key: nobody holds it. */
        ABSENT,
        /** A record with an owner, not yet expired by this machine's wall clock. */
        HELD,
        /** A record with an owner, expired by this machine's wall clock (its holder stopped renewing, or is late). */
        EXPIRED,
        /** A record written by a graceful release (no owner, expired): free, taken at once by the next candidate. */
        RELEASED,
        /** An object that is not a lease record; electors treat it as held ({@link #problem()} says why). */
        CORRUPT
    }

    /** True when an object was found under the key. */
    public boolean present() {
        return state != State.ABSENT;
    }

    /** One line for people: who holds the key, at which generation, and until when by this machine's clock. */
    public String describe() {
        return switch (state) {
            case ABSENT -> key + ": no record (nobody holds it)";
            case RELEASED -> key + ": released at generation " + generation + " (free)";
            case CORRUPT -> key + ": " + problem;
            case HELD, EXPIRED -> key + ": " + (state == State.HELD ? "held" : "expired, last held") + " by " + holder
                    + " at generation " + generation + ", expires_at " + expiresAt + " (" + expiryText() + ")";
        };
    }

    /** The expiry by this machine's clock in words, for example {@code in 12s by this machine's clock}. */
    public String expiryText() {
        if (expiresIn == null) {
            return state == State.RELEASED ? "released" : "no expiry";
        }
        String text = expiresIn.isNegative()
                ? "expired " + HumanDurations.format(expiresIn.negated()) + " ago by this machine's clock"
                : "in " + HumanDurations.format(expiresIn) + " by this machine's clock";
        return clockSkewSuspected ? text + "; more than 2 x TTL ahead: the writer's clock may run ahead" : text;
    }
}
