package dev.hoplock.spring.ownership;

import dev.hoplock.core.ownership.Member;
import dev.hoplock.core.ownership.MembershipView;
import dev.hoplock.core.ownership.Rendezvous;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * One change of the member set as this instance adopted it, with what it means for the keys this instance has seen
 * (checked through {@link HoplockOwnership} or a {@code @LeaderOnly(key = ...)} gate).
 *
 * <p>Guarantees: {@link #joined()} and {@link #left()} are the members in {@code current} but not {@code previous},
 * and the reverse, by id; {@link #gained()}, {@link #lost()} and {@link #movedKeys()} are computed with
 * {@link Rendezvous} over the two views, so they name which keys <em>should</em> change hands. A gained key is acted on
 * only once the hand-over rule allows it (the old owner stopped); a lost key is no longer acted on from this change.
 *
 * <p>A change with {@link #stoppedActing()} true is not a membership change: this instance stopped acting on every key
 * at that instant, without a new view (its view could not be confirmed in time, or its liveness lease ended), so
 * {@code previous} and {@code current} are the view it acted under, {@link #lost()} the keys seen that it owned in it,
 * and {@link #joined()} and {@link #left()} are empty. The next change after it compares with "owned nothing": a key
 * this instance owns again is {@link #gained()} again, and no key is lost twice.
 *
 * <p>A change with {@link #actsAfter()} false is a new view under which this instance does not act (the group's
 * {@link dev.hoplock.core.ownership.OwnershipEvent.MembershipChanged#acting()}, its gate's answer at that instant): it
 * owns nothing in {@code current} for this change, so nothing is {@link #gained()} (the gate would run none of those
 * keys), and the keys it acted on before are {@link #lost()}. The change that tells it acts again compares with "owned
 * nothing", as after a stop.
 *
 * @param group     the ownership group
 * @param epoch     the new membership epoch
 * @param self      this instance's member id
 * @param previous  the view before (empty at the first view this instance saw)
 * @param current   the view now
 * @param gained    keys seen by this instance that it owns in {@code current} and did not in {@code previous}
 * @param lost      keys seen by this instance that it owned in {@code previous} and does not in {@code current}
 * @param movedKeys how many keys seen by this instance changed owner
 * @param keysSeen  how many keys seen were compared (at most {@link KeysSeen#CAPACITY})
 * @param stoppedActing true when this instance stopped acting without a new view (see above)
 * @param actedBefore   false when this change follows a stop (this instance owned nothing before it), so that
 *                      {@link #gainedOf} and {@link #lostOf} compare with "owned nothing" as {@link #gained()} and
 *                      {@link #lost()} do; true otherwise
 * @param actsAfter     false when this instance does not act under {@code current} (see above), so that
 *                      {@link #gainedOf} and {@link #lostOf} count it as owning nothing there; true otherwise
 */
public record OwnershipChange(String group, long epoch, String self, MembershipView previous, MembershipView current,
                              List<String> gained, List<String> lost, int movedKeys, int keysSeen,
                              boolean stoppedActing, boolean actedBefore, boolean actsAfter) {

    public OwnershipChange {
        Objects.requireNonNull(previous, "previous");
        Objects.requireNonNull(current, "current");
        gained = List.copyOf(gained);
        lost = List.copyOf(lost);
    }

    /** A membership change (not a stop), as before {@link #stoppedActing()} existed. */
    public OwnershipChange(String group, long epoch, String self, MembershipView previous, MembershipView current,
            List<String> gained, List<String> lost, int movedKeys, int keysSeen) {
        this(group, epoch, self, previous, current, gained, lost, movedKeys, keysSeen, false, true, true);
    }

    /** A change that does not follow a stop ({@link #actedBefore()} true), as before that component existed. */
    public OwnershipChange(String group, long epoch, String self, MembershipView previous, MembershipView current,
            List<String> gained, List<String> lost, int movedKeys, int keysSeen, boolean stoppedActing) {
        this(group, epoch, self, previous, current, gained, lost, movedKeys, keysSeen, stoppedActing, true, true);
    }

    /** A change under which this instance acts ({@link #actsAfter()} true), as before that component existed. */
    public OwnershipChange(String group, long epoch, String self, MembershipView previous, MembershipView current,
            List<String> gained, List<String> lost, int movedKeys, int keysSeen, boolean stoppedActing,
            boolean actedBefore) {
        this(group, epoch, self, previous, current, gained, lost, movedKeys, keysSeen, stoppedActing, actedBefore,
                true);
    }

    /** Computes the change for {@code keys} (the keys seen). */
    static OwnershipChange of(String group, long epoch, String self, MembershipView previous, MembershipView current,
            Collection<String> keys) {
        return of(group, epoch, self, previous, current, keys, true, true);
    }

    /**
     * This instance stopped acting under {@code view} without a new view: every key seen that it owns in {@code view}
     * is lost; nothing joined, left or was gained.
     */
    static OwnershipChange stopped(String group, long epoch, String self, MembershipView view,
            Collection<String> keys) {
        List<String> lost = new ArrayList<>();
        for (String key : keys) {
            if (Rendezvous.isOwner(key, self, view)) {
                lost.add(key);
            }
        }
        lost.sort(null);
        return new OwnershipChange(group, epoch, self, view, view, List.of(), lost, 0, keys.size(), true, true, false);
    }

    /**
     * Computes the change for {@code keys}; {@code actedBefore} false (this instance had stopped acting) counts
     * {@code previous} as owning nothing for this instance: no key is lost again, every key it owns now is gained;
     * {@code actsAfter} false (it does not act under {@code current}) counts {@code current} as owning nothing for it:
     * no key is gained, every key it acted on is lost.
     */
    static OwnershipChange of(String group, long epoch, String self, MembershipView previous, MembershipView current,
            Collection<String> keys, boolean actedBefore, boolean actsAfter) {
        List<String> gained = new ArrayList<>();
        List<String> lost = new ArrayList<>();
        int moved = 0;
        for (String key : keys) {
            String before = Rendezvous.owner(key, previous).map(Member::id).orElse(null);
            if (!actedBefore && self.equals(before)) {
                before = null;   // it stopped acting: it owned nothing since
            }
            String after = Rendezvous.owner(key, current).map(Member::id).orElse(null);
            if (!actsAfter && self.equals(after)) {
                after = null;    // it does not act under current: it owns nothing there
            }
            if (Objects.equals(before, after)) {
                continue;
            }
            moved++;
            if (self.equals(after)) {
                gained.add(key);
            } else if (self.equals(before)) {
                lost.add(key);
            }
        }
        gained.sort(null);
        lost.sort(null);
        return new OwnershipChange(group, epoch, self, previous, current, gained, lost, moved, keys.size(), false,
                actedBefore, actsAfter);
    }

    /** Members in the new view and not in the old one (by id). */
    public List<Member> joined() {
        return current.members().stream().filter(m -> previous.member(m.id()).isEmpty()).toList();
    }

    /** Members in the old view and not in the new one (by id). */
    public List<Member> left() {
        return previous.members().stream().filter(m -> current.member(m.id()).isEmpty()).toList();
    }

    /**
     * Of {@code keys}, those this instance owns now and did not before (for keys not seen through the bean); after a
     * stop, every key it owns now; none when it does not act under {@code current}.
     */
    public List<String> gainedOf(Collection<String> keys) {
        return stoppedActing ? List.of() : of(group, epoch, self, previous, current, keys, actedBefore, actsAfter).gained();
    }

    /**
     * Of {@code keys}, those this instance owned before and does not now (all it owned, for a stop; none after a stop,
     * since those were lost at the stop).
     */
    public List<String> lostOf(Collection<String> keys) {
        return stoppedActing ? stopped(group, epoch, self, current, keys).lost()
                : of(group, epoch, self, previous, current, keys, actedBefore, actsAfter).lost();
    }
}
