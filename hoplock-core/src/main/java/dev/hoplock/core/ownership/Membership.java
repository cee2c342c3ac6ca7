package dev.hoplock.core.ownership;

/**
 * The seam ownership is computed over: this instance's own identity and the current list of members.
 *
 * <p>Contract for implementations: {@link #self()} never changes for the life of the membership. {@link #members()}
 * answers from local state, without I/O or blocking (it is called on every ownership check), and returns the same
 * {@link MembershipView} instance for as long as the members do not change, a new one with a higher version when they
 * do. When the membership does not know the members (not yet joined, store unreachable past its deadline), it throws
 * {@link MembershipUnavailableException}.
 *
 * <p>Contract for callers: an unavailable membership or an empty view means "skip" (fail closed): no key has an owner
 * then, and in particular this instance owns none. {@link OwnerCache} applies this rule.
 *
 * <p>A membership is not, by itself, safe ownership: two instances whose views differ may both compute that they own
 * a key (see the package documentation).
 */
public interface Membership {

    /** This instance, as it appears (by id) in the views when it is a member; never null. */
    Member self();

    /**
     * The current members; never null, possibly empty.
     *
     * @throws MembershipUnavailableException when the members are not known now: the caller skips (fail closed)
     */
    MembershipView members();
}
