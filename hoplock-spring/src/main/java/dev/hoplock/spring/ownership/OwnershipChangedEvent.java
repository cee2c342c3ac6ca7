package dev.hoplock.spring.ownership;

import dev.hoplock.core.ownership.Member;
import org.springframework.context.ApplicationEvent;

import java.util.Collection;
import java.util.List;

/**
 * The member set of an ownership group changed, as this instance adopted it: published at every membership change
 * (join, graceful leave, a crashed member dropped), with the keys this instance gained and lost among those it has
 * checked (see {@link OwnershipChange}); {@link #gainedOf}/{@link #lostOf} answer for any other key set.
 *
 * <p>Also published at the instant this instance <em>stops acting</em> without a new membership ({@link #stoppedActing()}:
 * its view could not be confirmed in time, or its liveness lease ended, because the store stopped answering), with
 * every key it had checked and owned as {@link #lost()}: when it stops, not when the store answers again. Then, when
 * the store answers, one event follows only if something changed since (the members, or keys it owns again, as
 * {@link #gained()}); a key is never reported lost twice. A new membership under which this instance does not act
 * ({@link #actsAfter()} false: its gate runs no key of it) gains no key; the keys come as {@link #gained()} when it
 * acts again.
 *
 * <p>Guarantees: published after the change took effect locally: a lost key is no longer acted on when a listener
 * sees it; a gained key is acted on only once the old owner has stopped (the hand-over rule), so
 * {@link HoplockOwnership#isOwner} may still answer false for it for up to about one poll (one TTL at most). Delivered
 * on the group's event thread, in order. Carries no secret.
 */
public final class OwnershipChangedEvent extends ApplicationEvent {

    private static final long serialVersionUID = 1L;

    private final transient OwnershipChange change;

    public OwnershipChangedEvent(HoplockOwnership source, OwnershipChange change) {
        super(source);
        this.change = change;
    }

    /** All the details. */
    public OwnershipChange change() {
        return change;
    }

    /** The ownership group. */
    public String group() {
        return change.group();
    }

    /** The new membership epoch. */
    public long epoch() {
        return change.epoch();
    }

    /** The members now. */
    public List<Member> members() {
        return change.current().members();
    }

    public List<Member> joined() {
        return change.joined();
    }

    public List<Member> left() {
        return change.left();
    }

    /**
     * True when this instance stopped acting on every key at this instant without a new membership (the store did
     * not answer in time); {@link #members()} are then the members it last knew, and {@link #lost()} every key it
     * owned.
     */
    public boolean stoppedActing() {
        return change.stoppedActing();
    }

    /**
     * False when this instance does not act under {@link #members()} (the group's gate at that instant: its liveness
     * lease ended, the view could not be confirmed in time, or it is leaving), so it gained nothing here.
     */
    public boolean actsAfter() {
        return change.actsAfter();
    }

    /** Keys checked by this instance that it owns now and did not before. */
    public List<String> gained() {
        return change.gained();
    }

    /** Keys checked by this instance that it owned before and does not now. */
    public List<String> lost() {
        return change.lost();
    }

    public List<String> gainedOf(Collection<String> keys) {
        return change.gainedOf(keys);
    }

    public List<String> lostOf(Collection<String> keys) {
        return change.lostOf(keys);
    }

    @Override
    public String toString() {
        return "OwnershipChangedEvent[group=" + group() + ", epoch=" + epoch() + ", members="
                + members().stream().map(Member::id).toList() + ", joined=" + joined().stream().map(Member::id).toList()
                + ", left=" + left().stream().map(Member::id).toList() + ", gained=" + gained().size() + ", lost="
                + lost().size() + (stoppedActing() ? ", stoppedActing" : "") + "]";
    }
}
