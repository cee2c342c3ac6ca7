package dev.hoplock.spring.leader;

import dev.hoplock.core.election.Elector;
import dev.hoplock.core.Lease;
import dev.hoplock.core.election.LossCause;

import java.time.Instant;

/**
 * This instance stopped leading an election; leader work has already been told to stop (open {@code @LeaderOnly}
 * calls interrupted, new ones skipped). Published also on shutdown, with cause {@link LossCause#STOPPED}.
 */
public class LeadershipLostEvent extends ElectionApplicationEvent {

    private static final long serialVersionUID = 1L;

    private final transient Lease lease;
    private final LossCause cause;
    private final String detail;

    public LeadershipLostEvent(Elector source, String election, Instant at, Lease lease, LossCause cause,
            String detail) {
        super(source, election, at);
        this.lease = lease;
        this.cause = cause;
        this.detail = detail;
    }

    /** The lease of the term that ended. */
    public Lease lease() {
        return lease;
    }

    /** Why the term ended. */
    public LossCause cause() {
        return cause;
    }

    /** A human-readable explanation. */
    public String detail() {
        return detail;
    }

    @Override
    public String toString() {
        return "LeadershipLostEvent[" + election() + ", generation " + lease.generation() + ", " + cause + "]";
    }
}
