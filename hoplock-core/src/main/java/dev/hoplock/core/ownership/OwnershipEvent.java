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
     * <p>{@code acting} is the gate's answer ({@link OwnershipGroup#isMember()}) at the instant of publication, under
     * {@code current}: false when this instance does not act under it (not registered in it, its liveness term ended,
     * the view adopted already past its confirmation, or leaving), and then no key of {@code current} is acted on until
     * a later event says it acts. The events tell every change of that answer, in order: an adoption that ends acting
     * is preceded by an {@link ActingStopped} for the view acted under, and acting again without a new view is told
     * as a {@code MembershipChanged} with {@code current} as both {@code previous} and {@code current}, {@code acting}
     * true.
     *
     * @param epoch    the new epoch
     * @param previous the view before (empty at the first epoch this instance saw)
     * @param current  the view now
     * @param acting   whether this instance acts under {@code current} now (see above)
     */
    record MembershipChanged(String group, long epoch, MembershipView previous, MembershipView current,
                             boolean acting) implements OwnershipEvent {
        public MembershipChanged {
            Objects.requireNonNull(previous, "previous");
            Objects.requireNonNull(current, "current");
        }

        /** A change under which this instance acts ({@code acting} true), as before that component existed. */
        public MembershipChanged(String group, long epoch, MembershipView previous, MembershipView current) {
            this(group, epoch, previous, current, true);
        }
    }

    /**
     * This instance stopped acting on every key although no new view said so: the view of {@code epoch} could not be
     * confirmed in time (rule M2: the store did not answer) or its liveness term ended (rule M1), or a new view was
     * adopted under which it does not act (told just before that view's {@link MembershipChanged}). Published at that
     * instant, on the group's scheduler (not when the store answers again), once per stop: every key it owned in
     * {@code view} is no longer acted on. When it acts again, a {@link MembershipChanged} with {@code acting} true says
     * so: the next view it adopts and acts under, or, when it acts again under the view it last adopted, one with that
     * view as both {@code previous} and {@code current}. A new view adopted while it does not act is told with
     * {@code acting} false.
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
