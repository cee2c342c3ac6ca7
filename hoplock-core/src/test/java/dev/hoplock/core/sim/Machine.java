package dev.hoplock.core.sim;

import java.time.Duration;

/**
 * A simulated machine: its clocks and its network link to the store. Processes come and go on it (crash, restart);
 * the clocks and the link stay.
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

    final String name;
    final long origin;
    final double rate;
    Duration wallOffset;
    Link link = Link.UP;
    /** While true, most requests of this machine are slow, some longer than a TTL. */
    boolean slow;
    SimProcess process;
    int incarnation;
    long linkEpoch;
    long slowEpoch;

    Machine(String name, long origin, double rate, Duration wallOffset) {
        this.name = name;
        this.origin = origin;
        this.rate = rate;
        this.wallOffset = wallOffset;
    }

    /** This machine's monotonic reading at shared time {@code shared}. */
    long local(long shared) {
        return origin + (long) Math.floor(shared * rate);
    }
}
