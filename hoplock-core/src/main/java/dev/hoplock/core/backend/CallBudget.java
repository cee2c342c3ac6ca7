package dev.hoplock.core.backend;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The time budget of one {@link Backend} call, for store implementations: the caller's timeout capped by the store's
 * own request timeout, counted on the monotonic clock from the moment the call began, so that every request the call
 * makes (a refused write's follow-up read, a start-up check's steps, a retried statement) gets only what is left.
 *
 * <p>Guarantees: {@link #remaining()} never grows and is never negative; a call whose caller has no time left is
 * refused by {@link #forCall} before anything is sent, as a {@link BackendException.Kind#TRANSIENT} failure whose
 * message says that nothing was sent (so the caller may treat it as a write that did not happen). Immutable and
 * thread-safe; it reads {@link System#nanoTime()} only (stores talk to real servers on the real clock).
 */
public final class CallBudget {

    private final Duration budget;
    private final long endNanos;

    private CallBudget(Duration budget) {
        this.budget = budget;
        this.endNanos = System.nanoTime() + budget.toNanos();
    }

    /**
     * The budget of a call that begins now: {@code callerTimeout} capped by {@code cap} (the store's request timeout).
     *
     * @param target what the call is for, in words for the message when there is no time left (for example
     *               {@code "a read of 'leader' in s3://bucket/prefix"}); asked only then, never containing a secret
     * @throws BackendException TRANSIENT, naming {@code target}, when {@code callerTimeout} is zero or negative:
     *                          nothing is sent
     */
    public static CallBudget forCall(Duration callerTimeout, Duration cap, Supplier<String> target)
            throws BackendException {
        Objects.requireNonNull(callerTimeout, "timeout");
        Objects.requireNonNull(cap, "cap");
        if (callerTimeout.isNegative() || callerTimeout.isZero()) {
            throw new BackendException(BackendException.Kind.TRANSIENT, "no time left for " + target.get()
                    + " (timeout " + callerTimeout.toMillis() + " ms); nothing was sent");
        }
        return new CallBudget(callerTimeout.compareTo(cap) < 0 ? callerTimeout : cap);
    }

    /** A budget of exactly {@code budget} that begins now (a step that no caller's timeout bounds, such as a check). */
    public static CallBudget of(Duration budget) {
        Objects.requireNonNull(budget, "budget");
        if (budget.isNegative()) {
            throw new IllegalArgumentException("a call budget cannot be negative: " + budget);
        }
        return new CallBudget(budget);
    }

    /** The whole budget the call began with (for messages: "no answer within ..."). */
    public Duration budget() {
        return budget;
    }

    /** The time left; {@link Duration#ZERO} once the budget is spent. */
    public Duration remaining() {
        long left = endNanos - System.nanoTime();
        return left <= 0 ? Duration.ZERO : Duration.ofNanos(left);
    }

    /**
     * The time left, but at least {@code floor}: for a client that refuses a zero timeout (the AWS SDK), where a
     * request sent with the floor is still bounded and its outcome is unknown like any other.
     */
    public Duration remainingAtLeast(Duration floor) {
        Duration left = remaining();
        return left.compareTo(floor) < 0 ? floor : left;
    }

    /** Whole milliseconds left, rounded up; 0 once the budget is spent. */
    public long millisLeft() {
        long left = endNanos - System.nanoTime();
        return left <= 0 ? 0 : (left + 999_999) / 1_000_000;
    }

    /** True while some of the budget is left. */
    public boolean hasTimeLeft() {
        return endNanos - System.nanoTime() > 0;
    }

    @Override
    public String toString() {
        return "CallBudget[" + budget.toMillis() + " ms, " + millisLeft() + " ms left]";
    }
}
