package dev.hoplock.spring.ownership;

import dev.hoplock.core.election.LeaderScope;
import dev.hoplock.core.Lease;
import dev.hoplock.core.ownership.OwnershipClaim;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * The leader context of a {@code @LeaderOnly(key = ...)} call: an {@link OwnershipClaim} seen as a {@link LeaderScope},
 * so that {@link dev.hoplock.spring.leader.LeaderContextHolder} and {@code @Fenced} work the same for keys as for elections.
 *
 * <p>Guarantees: {@link #lease()}'s generation is the key's fencing token (it rises at every change of the key's
 * owner), its key is the ownership key, its owner this member's id; {@link #holder()} is the fence holder (the
 * process); {@link #isLeading()} is the claim's validity;
 * {@link #wasLost()} is true when the ownership ended while the scope was open (judged at {@link #close()} at the
 * latest).
 */
public final class OwnershipScope implements LeaderScope {

    private final String group;
    private final OwnershipClaim claim;
    private final Lease lease;
    private final String holder;
    private volatile boolean lostAtClose;
    private volatile boolean closed;

    /**
     * A scope whose fence holder is {@code memberId}. Prefer {@link #OwnershipScope(String, String, String,
     * OwnershipClaim)} with the group's process owner: a member id can be reused by a new process (a rescheduled
     * pod), and two processes of one member id with one repeated token then pass the fence as one holder.
     */
    public OwnershipScope(String group, String memberId, OwnershipClaim claim) {
        this(group, memberId, memberId, claim);
    }

    /**
     * A scope of member {@code memberId} whose fence holder is {@code holder}, the unique id of the process
     * ({@link dev.hoplock.core.ownership.OwnershipGroup#processOwner()}).
     */
    public OwnershipScope(String group, String memberId, String holder, OwnershipClaim claim) {
        this.holder = Objects.requireNonNull(holder, "holder");
        this.group = Objects.requireNonNull(group, "group");
        this.claim = Objects.requireNonNull(claim, "claim");
        this.lease = new Lease(claim.key(), memberId, claim.token(), Instant.now().plus(claim.timeLeft()));
    }

    /** The ownership group. */
    public String group() {
        return group;
    }

    /** The key this call owns. */
    public String key() {
        return claim.key();
    }

    /** The key's fencing token. */
    public long token() {
        return claim.token();
    }

    /**
     * The holder id {@code @Fenced} passes to the fence with the key's token: the process owner written into this
     * member's liveness lease, so that after a registry reset (tokens can repeat) a stale process's equal token is
     * refused once another process wrote with it.
     */
    public String holder() {
        return holder;
    }

    @Override
    public Lease lease() {
        return lease;
    }

    @Override
    public boolean isLeading() {
        return !closed && claim.isValid();
    }

    @Override
    public Duration timeLeft() {
        return closed ? Duration.ZERO : claim.timeLeft();
    }

    @Override
    public boolean wasLost() {
        return closed ? lostAtClose : !claim.isValid();
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        lostAtClose = !claim.isValid();
        closed = true;
        claim.close();
    }

    @Override
    public String toString() {
        return "OwnershipScope[" + group + ", " + claim.key() + ", token " + claim.token() + "]";
    }
}
