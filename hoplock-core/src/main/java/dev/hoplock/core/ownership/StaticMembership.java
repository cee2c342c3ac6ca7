package dev.hoplock.core.ownership;

import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * A membership that never changes, for development, a single process and tests: ha's {@code Static}.
 *
 * <p>Guarantees: {@link #members()} always returns the same view (version 1) and never throws. With
 * {@link #single(Member)} this instance is the only member and owns every key, which is correct for exactly one
 * process and wrong for two: nothing here notices a second process with the same or another static membership.
 * {@link #of(Member, Collection)} fixes a larger list, as a test of several members in one JVM needs; {@code self}
 * need not be in it (an observer that owns no key).
 */
public final class StaticMembership implements Membership {

    /** The version of every static view. */
    public static final long VERSION = 1;

    private final Member self;
    private final MembershipView view;

    private StaticMembership(Member self, MembershipView view) {
        this.self = Objects.requireNonNull(self, "self is null");
        this.view = view;
    }

    /** A membership whose only member is {@code self}. */
    public static StaticMembership single(Member self) {
        Objects.requireNonNull(self, "self is null");
        return new StaticMembership(self, MembershipView.of(VERSION, List.of(self)));
    }

    /** A membership whose only member is a member with this id and no address. */
    public static StaticMembership single(String selfId) {
        return single(Member.of(selfId));
    }

    /** A fixed membership of {@code members} seen by {@code self} (a member of it or not). */
    public static StaticMembership of(Member self, Collection<Member> members) {
        return new StaticMembership(self, MembershipView.of(VERSION, members));
    }

    @Override
    public Member self() {
        return self;
    }

    @Override
    public MembershipView members() {
        return view;
    }

    @Override
    public String toString() {
        return "StaticMembership{self=" + self.id() + ", members=" + view.size() + "}";
    }
}
