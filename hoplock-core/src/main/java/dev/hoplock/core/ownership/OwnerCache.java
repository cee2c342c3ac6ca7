package dev.hoplock.core.ownership;

import org.jspecify.annotations.Nullable;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The hot-path ownership check: {@link Rendezvous}'s answers over a {@link Membership}, remembered per key for as long
 * as the membership's view does not change.
 *
 * <p>Guarantees:
 * <ul>
 *   <li>Every answer is the one {@link Rendezvous} computes over the view that {@link Membership#members()} returned
 *       during that call: a cached owner is never served for another view. The cache belongs to one view instance and
 *       is dropped when the membership returns another.</li>
 *   <li>Fail closed: when the membership throws {@link MembershipUnavailableException}, or its view is empty, or this
 *       instance is not in it, {@link #isOwner} is false ({@link #owner} and {@link #replicas} are empty in the first
 *       two cases).</li>
 *   <li>No I/O: a check reads the membership's local view and this cache only.</li>
 *   <li>Bounded: about {@code capacity} keys are remembered per view (at most one more per thread inserting at the
 *       same moment); when a new key would exceed it, the cache is emptied and refills from there.</li>
 * </ul>
 *
 * <p>Cost: a key seen before under the current view costs a {@link ConcurrentHashMap} look-up; a key not seen before
 * costs {@link Rendezvous}'s N SHA-256 computations once. The amortised cost is low only when keys repeat and the
 * distinct keys checked per view fit in the capacity: a workload that checks more distinct keys than the capacity in
 * a cycle recomputes most of them. Memory: about 100 bytes per remembered key, plus the key strings, which the cache
 * keeps reachable until the view changes or the cache is emptied.
 *
 * <p>Safe for concurrent use. Not safe ownership by itself: see the package documentation.
 */
public final class OwnerCache {

    /** The default number of keys remembered per view. */
    public static final int DEFAULT_CAPACITY = 65_536;

    private final Membership membership;
    private final Member self;
    private final int capacity;
    private volatile @Nullable Snapshot snapshot;

    /** A cache of {@value #DEFAULT_CAPACITY} keys per view over {@code membership}. */
    public OwnerCache(Membership membership) {
        this(membership, DEFAULT_CAPACITY);
    }

    /**
     * A cache of at most {@code capacity} keys per view over {@code membership}.
     *
     * @throws IllegalArgumentException when {@code capacity < 1}
     */
    public OwnerCache(Membership membership, int capacity) {
        this.membership = Objects.requireNonNull(membership, "membership is null");
        this.self = Objects.requireNonNull(membership.self(), () -> membership + " returned a null self()");
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity is " + capacity + ": the cache must hold at least one key;"
                    + " use " + DEFAULT_CAPACITY + " (the default) unless you measured otherwise");
        }
        this.capacity = capacity;
    }

    /** This instance, as the membership names it. */
    public Member self() {
        return self;
    }

    /**
     * Whether this instance owns {@code key} in the membership's current view; false when the membership is
     * unavailable or empty, or does not include this instance (fail closed).
     */
    public boolean isOwner(String key) {
        Objects.requireNonNull(key, "key is null");
        Snapshot current = current();
        if (current == null || current.self == null) {
            return false;
        }
        return current.owner(key) == current.self;
    }

    /** The owner of {@code key} in the current view; empty when the membership is unavailable or empty. */
    public Optional<Member> owner(String key) {
        Objects.requireNonNull(key, "key is null");
        Snapshot current = current();
        return current == null ? Optional.empty() : Optional.ofNullable(current.owner(key));
    }

    /**
     * {@link Rendezvous#replicas(String, MembershipView, int)} over the current view (computed, not cached); empty
     * when the membership is unavailable.
     */
    public List<Member> replicas(String key, int n) {
        Snapshot current = current();
        return current == null ? List.of() : Rendezvous.replicas(key, current.view, n);
    }

    /** How many keys are remembered for the current view (for tests and metrics). */
    public int cachedKeys() {
        Snapshot current = snapshot;
        return current == null ? 0 : current.owners.size();
    }

    /** The snapshot of the view the membership returns now, or null when it is unavailable. */
    private @Nullable Snapshot current() {
        MembershipView view;
        try {
            view = membership.members();
        } catch (MembershipUnavailableException unavailable) {
            return null;
        }
        Snapshot current = snapshot;
        if (current != null && current.view == view) {
            return current;
        }
        Objects.requireNonNull(view, () -> membership + " returned a null view: return an empty view, or throw"
                + " MembershipUnavailableException when the members are not known");
        current = new Snapshot(view, view.member(self.id()).orElse(null), capacity);
        snapshot = current;
        return current;
    }

    /** One view and the owners computed over it. */
    private static final class Snapshot {

        final MembershipView view;
        /** The view's member with this instance's id, or null when this instance is not a member. */
        final @Nullable Member self;
        final ConcurrentHashMap<String, Member> owners = new ConcurrentHashMap<>();
        final int capacity;

        Snapshot(MembershipView view, @Nullable Member self, int capacity) {
            this.view = view;
            this.self = self;
            this.capacity = capacity;
        }

        /** The owner of {@code key} in this view, or null when the view is empty. */
        @Nullable Member owner(String key) {
            Member owner = owners.get(key);
            if (owner != null) {
                return owner;
            }
            int index = Rendezvous.ownerIndex(key, view);
            if (index < 0) {
                return null;
            }
            owner = view.members().get(index);
            if (owners.size() >= capacity) {
                owners.clear();
            }
            owners.put(key, owner);
            return owner;
        }
    }
}
