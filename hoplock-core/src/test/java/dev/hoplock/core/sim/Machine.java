package dev.hoplock.core.sim;

import java.time.Duration;

/**
 * A simulated machine: its clocks, its elector settings and its network link to the store. Processes come and go on
 * it (crash, restart); the clocks, the settings and the link stay.
 *
 * <p>The monotonic clock stops while the machine is suspended (a VM or laptop suspend, a checkpoint-restore): then
 * {@link #local(long)} stands still and no timer of the machine fires, while the shared wall clock goes on.
 */
final class Machine {

    /** The state of the machine's link to the store. */
    enum Link {
        /** Requests reach the store. */
        UP,
        /** Connection refused / no route: every request fails fast without reaching the store. */
        REFUSED,
        /** Packets vanish: requests never reach the store and never get an answer. */
        BLACKHOLE,
        /** Requests reach the store and take effect, but no answer comes back. */
        ONE_WAY
    }

    /** The elector settings of this machine's processes (they differ between machines in mixed-TTL schedules). */
    record Timing(Duration ttl, Duration renew, Duration poll, Duration margin, Duration requestTimeout) {

        @Override
        public String toString() {
            return "ttl " + ttl.toSeconds() + "s, renew " + renew.toMillis() + "ms, poll " + poll.toMillis()
                    + "ms, margin " + margin.toMillis() + "ms, request timeout " + requestTimeout.toMillis() + "ms";
        }
    }

    final String name;
    final long origin;
    final double rate;
    final Timing timing;
    Duration wallOffset;
    Link link = Link.UP;
    /** While true, most requests of this machine are slow, some longer than a TTL. */
    boolean slow;
    /** While true, a share of this machine's requests is answered synchronously, inside the call. */
    boolean synchronousAnswers;
    /** While positive, the elector's {@code schedule()} calls throw with this probability. */
    double schedulerFailure;
    SimProcess process;
    int incarnation;
    /** Shared time of the last wall-clock step (a long time ago if never). */
    long wallSteppedAt = Long.MIN_VALUE / 2;
    long linkEpoch;
    long slowEpoch;
    long syncEpoch;
    long schedulerEpoch;
    /** Shared time spent suspended before the current suspend. */
    private long suspendedNanos;
    /** Shared time at which the current suspend began, or -1. */
    private long suspendedSince = -1;
    private long wokeAt = Long.MIN_VALUE / 2;

    Machine(String name, long origin, double rate, Timing timing, Duration wallOffset) {
        this.name = name;
        this.origin = origin;
        this.rate = rate;
        this.timing = timing;
        this.wallOffset = wallOffset;
    }

    /** This machine's monotonic reading at shared time {@code shared}: it does not advance while suspended. */
    long local(long shared) {
        long running = shared - suspendedNanos - (suspendedSince < 0 ? 0 : shared - suspendedSince);
        return origin + (long) Math.floor(running * rate);
    }

    /** Shared time until this machine's monotonic clock reads {@code localDue} (if it keeps running). */
    long sharedUntil(long localDue, long sharedNow) {
        long left = localDue - local(sharedNow);
        return left <= 0 ? 0 : (long) Math.ceil(left / rate);
    }

    boolean suspended() {
        return suspendedSince >= 0;
    }

    void suspend(long sharedNow) {
        if (suspendedSince < 0) {
            suspendedSince = sharedNow;
        }
    }

    void wake(long sharedNow) {
        if (suspendedSince >= 0) {
            suspendedNanos += sharedNow - suspendedSince;
            suspendedSince = -1;
            wokeAt = sharedNow;
        }
    }

    /** Shared time of the last wake from a suspend (a long time ago if never). */
    long wokeAt() {
        return wokeAt;
    }
}
