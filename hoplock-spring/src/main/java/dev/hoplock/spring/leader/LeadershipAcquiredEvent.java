package dev.hoplock.spring.leader;

import dev.hoplock.core.election.Elector;
import dev.hoplock.core.Lease;

import java.time.Instant;

/**
 * This instance became the leader of an election. Never published twice without a {@link LeadershipLostEvent}
 * in between.
 */
public class LeadershipAcquiredEvent extends ElectionApplicationEvent {

    private static final long serialVersionUID = 1L;

    private final transient Lease lease;

    public LeadershipAcquiredEvent(Elector source, String election, Instant at, Lease lease) {
        super(source, election, at);
        this.lease = lease;
    }

    /** The lease acquired; its generation is the fencing token of this term. */
    public Lease lease() {
        return lease;
    }

    @Override
    public String toString() {
        return "LeadershipAcquiredEvent[" + election() + ", " + lease.owner() + ", generation " + lease.generation() + "]";
    }
}
