package dev.hoplock.core.ownership;

import java.util.Objects;

/**
 * Something that happened to an {@link OwnershipGroup}, as this instance saw it. Delivered in order on the group's
 * event executor, after the state change (when a listener sees {@link MembershipChanged}, the checks already answer
 * over the new view).
 *
 * <p>Some events are published under the group's lock; with a direct event executor a listener runs inline there and
 * must not block or call back into the group synchronously (see {@link OwnershipGroup#addListener}).
 */
public sealed interface OwnershipEvent
        permits OwnershipEvent.MembershipChanged, OwnershipEvent.Settled, OwnershipEvent.ActingStopped,
        OwnershipEvent.Problem {

    /** The group's name. */
    String group();

    /**
     * This instance adopted a new membership epoch. Keys whose owner differs between {@code previous} and
     * {@code current} moved ({@link Rendezvous#owner} over each); keys this instance lost are no longer acted on; keys
     * it gained are acted on once the epoch is settled (see {@link Settled}, or the grace of one TTL).
     *
     * @param epoch    the new epoch
     * @param previous the view before (empty at the first epoch this instance saw)
     * @param current  the view now
     */
    record MembershipChanged(String group, long epoch, MembershipView previous, MembershipView current)
            implements OwnershipEvent {
        public MembershipChanged {
            Objects.requireNonNull(previous, "previous");
            Objects.requireNonNull(current, "current");
        }
    }

    /**
     * This instance stopped acting on every key although no new view said so: the view of {@code epoch} could not be
     * confirmed in time (rule M2: the store did not answer) or its liveness term ended (rule M1). Published at that
     * instant, on the group's scheduler (not when the store answers again), once per stop: every key it owned in
     * {@code view} is no longer acted on. When it acts again, a {@link MembershipChanged} says so: the next view it
     * adopts, or, when the same view is confirmed again, one with that view as both {@code previous} and
     * {@code current}.
     *
     * @param epoch the epoch of the view it acted under
     * @param view  that view (the members it last knew; not a new membership)
     */
    record ActingStopped(String group, long epoch, MembershipView view) implements OwnershipEvent {
        public ActingStopped {
            Objects.requireNonNull(view, "view");
        }
    }

    /** Every other member acknowledged {@code epoch}: keys this instance gained at it may be acted on now. */
    record Settled(String group, long epoch, MembershipView view) implements OwnershipEvent {
    }

    /** Something needs attention (the registry is unreadable or gone, a store error); the message says what. */
    record Problem(String group, String message) implements OwnershipEvent {
    }
}
