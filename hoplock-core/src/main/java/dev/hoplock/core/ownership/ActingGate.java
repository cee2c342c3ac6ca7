package dev.hoplock.core.ownership;

import dev.hoplock.core.Lease;
import dev.hoplock.core.election.Elector;
import dev.hoplock.core.election.LeaderScope;
import dev.hoplock.core.time.TimeSource;
import org.jspecify.annotations.Nullable;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The one place that decides whether this instance acts as the owner of a key (the hot path of
 * {@link OwnershipGroup#isOwner}, {@link OwnershipGroup#token} and {@link OwnershipGroup#claim}), from local state
 * only: no store request, no lock (a claim is opened only while acting, and handed out only if still acting after).
 *
 * <p>Guarantees: {@link #tokenIfActing} answers a token only when rule M1 holds (checked here: the liveness elector
 * leads now, and the adopted registry entry of this member id was written by this process for the term it leads in:
 * the entry's owner is this process and its generation that term's; another process's entry at the same generation,
 * a rescheduled pod's that re-created a deleted lease, is not this one's), the view is confirmed (M2,
 * {@link EpochView#fresh}), the key is actionable (M3 and M4, {@link EpochView#actionable}), and the group is not
 * leaving (M7, {@link #stopActing}); the token is the one of rule M8 ({@link EpochView#acquiredAt}).
 */
final class ActingGate {

    private final MembershipLoop loop;
    private final Elector elector;
    private final TimeSource time;
    private final boolean ignoreLease;
    private volatile boolean leaving;

    ActingGate(GroupConfig config, MembershipLoop loop, Elector elector, TimeSource time) {
        this.loop = loop;
        this.elector = elector;
        this.time = time;
        this.ignoreLease = config.has(GroupConfig.Defect.IGNORE_LEASE);
    }

    /** Rule M7, the local part: from now on no key is acted on, whatever the store says. */
    void stopActing() {
        leaving = true;
    }

    boolean leaving() {
        return leaving;
    }

    /** Rules M1 to M4 and M8, the one place that decides whether this instance acts on a key: the token, or -1. */
    long tokenIfActing(String key) {
        Objects.requireNonNull(key, "key is null");
        if (leaving) {
            return -1;
        }
        EpochView view = loop.current();
        if (view == null || view.self == null) {
            return -1;
        }
        // Rule M1: acting needs the registered term, registered by this process (EpochView.self).
        if (!ignoreLease && !registeredTerm(view)) {
            return -1;
        }
        long now = time.nanoTime();
        if (!view.fresh(now, time.wallMillis()) || !view.actionable(key, now)) {
            return -1;
        }
        return view.acquiredAt(key);
    }

    /**
     * Opens a claim on {@code key} for {@code group} only while this instance acts as its owner, inside a leader scope
     * of the liveness elector, and re-checks after opening (the view may have changed, or leaving begun, meanwhile):
     * the claim is returned only when the token is still the same.
     */
    Optional<OwnershipClaim> claim(OwnershipGroup group, ClaimBook claims, String key, boolean interruptOnLoss) {
        long token = tokenIfActing(key);
        if (token < 0) {
            return Optional.empty();
        }
        Optional<LeaderScope> scope = elector.enterLeaderScope(interruptOnLoss);
        if (scope.isEmpty()) {
            return Optional.empty();
        }
        ClaimBook.Claim claim = claims.open(group, key, token, scope.get(), interruptOnLoss);
        if (tokenIfActing(key) != token || leaving) {
            claim.close();
            return Optional.empty();
        }
        return Optional.of(claim);
    }

    /**
     * As {@link #claim(OwnershipGroup, ClaimBook, String, boolean)}, for work not bound to a thread: the loss (the key
     * moved, the member lease ended, leaving) runs {@code onLoss} once instead of an interrupt.
     */
    Optional<OwnershipClaim> claim(OwnershipGroup group, ClaimBook claims, String key, Runnable onLoss) {
        long token = tokenIfActing(key);
        if (token < 0) {
            return Optional.empty();
        }
        java.util.concurrent.atomic.AtomicReference<ClaimBook.@Nullable Claim> opened =
                new java.util.concurrent.atomic.AtomicReference<>();
        LeaderScope scope = elector.tryEnterLeaderScope(() -> {
            ClaimBook.Claim claim = opened.get();
            if (claim != null) {
                claim.lose();
            }
        });
        if (scope == null) {
            return Optional.empty();
        }
        ClaimBook.Claim claim = claims.open(group, key, token, scope, onLoss);
        opened.set(claim);
        // A loss between the scope and the claim found no claim to tell: refused here instead.
        if (tokenIfActing(key) != token || leaving || !scope.isLeading()) {
            claim.close();
            return Optional.empty();
        }
        return Optional.of(claim);
    }

    /**
     * Rule M1: the liveness elector leads now, in the term of the generation that this process's entry in
     * {@code view} carries ({@code view.self} is null for an entry of another process).
     */
    private boolean registeredTerm(EpochView view) {
        Optional<Lease> lease = elector.currentLease();
        return view.self != null && lease.isPresent() && lease.get().generation() == view.self.generation();
    }

    /** True when this instance is registered under its current liveness term (it may own keys). */
    boolean isMember() {
        EpochView view = loop.current();
        return !leaving && view != null && registeredTerm(view) && view.fresh(time.nanoTime(), time.wallMillis());
    }

    /** The current epoch while its view is confirmed (M2). */
    OptionalLong epoch() {
        EpochView view = loop.current();
        return view == null || !view.fresh(time.nanoTime(), time.wallMillis()) ? OptionalLong.empty()
                : OptionalLong.of(view.epoch);
    }

    /** The current view while it is confirmed (M2), else null. */
    @Nullable MembershipView usableView() {
        EpochView view = loop.current();
        return view == null || !view.fresh(time.nanoTime(), time.wallMillis()) ? null : view.view;
    }

    /** Internal state for traces: view, settledness, registry, lease. */
    String describe() {
        EpochView view = loop.current();
        long now = time.nanoTime();
        return "member=" + isMember() + " lease=" + elector.currentLease().map(l -> "gen " + l.generation())
                .orElse("none") + " view=" + view + (view == null ? "" : " fresh=" + view.fresh(now, time.wallMillis())
                + " settledNow=" + view.settled(now) + " selfGen=" + view.selfGeneration) + " registry="
                + loop.latest().map(r -> "epoch " + r.epoch() + " " + r.entries()).orElse("none")
                + " problem=" + loop.lastProblem();
    }
}
