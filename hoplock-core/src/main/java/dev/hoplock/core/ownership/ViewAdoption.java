package dev.hoplock.core.ownership;

import dev.hoplock.core.time.TimeSource;
import org.jspecify.annotations.Nullable;

import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The epoch view this member acts under ({@link #current()}, what the hot path reads) and how a registry version that
 * a request showed becomes it: rules M2 and M3 are set here, and a registry re-created or replaced (M9) is recognised
 * and reported here.
 *
 * <p>Guarantees: a view is confirmed only until {@code t0 + ttl - margin} on both clocks, {@code t0} taken before the
 * request whose answer showed it (M2). A version only re-confirms the adopted view when it is provably the same view
 * ({@link Registry#sameViewAs}: same incarnation, epoch and registrations); any other version is a new view, adopted
 * with its own grace, an event, and (when it is another registry at an epoch not above the adopted one, or another
 * incarnation) a problem report (M9). A new epoch is settled by acknowledgements only when every other member
 * acknowledged it in an incarnation that is not young, else once a whole {@code ttl} has passed since the answer that
 * first showed it (M3): the members of a deleted registry are in no entry of a re-created one and acknowledge
 * nothing, so a created registry is settled by the grace alone until some member has waited that grace
 * ({@link Registry#grownUp}). The previous view is chained only when the new epoch is exactly one above it in the same
 * incarnation under the same registration (M4's chain, broken by skipped epochs and by re-creation;
 * {@link EpochView}). A registration that replaced another process's entry of this member id at a generation not
 * below its own (a deleted member lease re-created by a second process) trusts no acknowledgement for a whole
 * {@code ttl}: the replaced process may still act under its view until that lapses (M1, M3). Called under the membership loop's lock; {@link #current()} is read without it.
 */
final class ViewAdoption {

    private final GroupConfig config;
    private final ClaimBook claims;
    private final Consumer<OwnershipEvent> events;
    private final Consumer<String> problems;
    private final Predicate<@Nullable EpochView> actingAfterAdoption;
    private final long ttlNanos;
    private final long usableNanos;
    private final TimeSource time;
    private volatile @Nullable EpochView current;
    /** Monotonic time before which no acknowledgement settles an epoch (a replaced registration), or 0. */
    private long acknowledgementsTrustedFrom;

    /**
     * @param actingAfterAdoption asked with the view before, once a new view is current and before its
     *                            {@link OwnershipEvent.MembershipChanged} is published: whether this member acts under
     *                            the new view ({@link ActingWatch#adopting}, which tells a stop under the view before
     *                            first)
     */
    ViewAdoption(GroupConfig config, TimeSource time, ClaimBook claims, Consumer<OwnershipEvent> events,
                 Consumer<String> problems, Predicate<@Nullable EpochView> actingAfterAdoption) {
        this.config = config;
        this.actingAfterAdoption = actingAfterAdoption;
        this.time = time;
        this.claims = claims;
        this.events = events;
        this.problems = problems;
        this.ttlNanos = config.ttl().toNanos();
        this.usableNanos = config.ttl().minus(config.safetyMargin()).toNanos();
    }

    @Nullable EpochView current() {
        return current;
    }

    /** Forgets the view: nothing is acted under any more (the loop stopped). */
    void clear() {
        current = null;
    }

    /**
     * Adopts a registry version that a request sent at {@code t0} (monotonic) / {@code w0} (wall) showed, answered at
     * {@code answered} (monotonic). Rule M2: the view may be acted under until {@code t0 + ttl - margin} on both
     * clocks.
     */
    void adopt(Registry registry, long t0, long w0, long answered) {
        EpochView before = current;
        long deadline = t0 + usableNanos;
        long wallDeadline = w0 + usableNanos / 1_000_000;
        if (config.has(GroupConfig.Defect.NO_VIEW_DEADLINE)) {
            deadline = t0 + Long.MAX_VALUE / 4;
            wallDeadline = Long.MAX_VALUE / 4;
        }
        if (before != null && sameView(registry, before)) {
            before.confirm(deadline, wallDeadline);
            if (settlesByAcknowledgement(registry) && !before.settledByAcknowledgement()) {
                before.markSettled();
                events.accept(new OwnershipEvent.Settled(config.group(), before.epoch, before.view));
            }
            return;
        }
        if (before != null) {
            // Rule M9: epochs only rise within one registry. Another registry at an epoch not above the adopted one,
            // or another incarnation, is a re-created (or replaced) registry: reported, and a new chain.
            if (registry.epoch() < before.epoch) {
                problems.accept(OwnershipProblems.epochWentBack(before.epoch, registry.epoch()));
            } else if (registry.epoch() == before.epoch) {
                problems.accept(OwnershipProblems.registryReplaced(registry.epoch()));
            } else if (!registry.sameIncarnation(before.registry)) {
                problems.accept(OwnershipProblems.registryRecreated(before.epoch, registry.epoch()));
            }
        }
        // Rule M3: the hand-over grace is a whole TTL from the answer that first showed the epoch.
        long graceEnd = answered + ttlNanos;
        if (config.has(GroupConfig.Defect.SETTLE_AT_ONCE)) {
            graceEnd = answered;
        }
        // Rules M4, M8: EpochView chains the view before only when it is one epoch lower in the same incarnation,
        // under the same registration of this process.
        EpochView next = new EpochView(registry, config.memberId(), config.owner(), before, graceEnd, config);
        next.confirm(deadline, wallDeadline);
        Registry.Entry replaced = before == null ? null : before.registry.entry(config.memberId());
        if (next.self != null && replaced != null && !replaced.owner().equals(config.owner())
                && replaced.generation() >= next.self.generation()
                && !config.has(GroupConfig.Defect.GENERATION_ONLY_REGISTRATION)) {
            // Rules M1, M3, M6: this registration replaced another process's entry of this member id at a generation
            // not below its own (its lease was deleted and re-created from outside): no lease rule proves that process
            // stopped, and it acknowledges nothing any more. Until a whole TTL has passed since this answer (its view,
            // confirmed before this write, has lapsed by then, M2), no epoch is settled by acknowledgements here.
            acknowledgementsTrustedFrom = graceEnd;
            problems.accept(OwnershipProblems.registrationReplaced(config.memberId(), replaced.owner()));
        }
        if (settlesByAcknowledgement(registry)) {
            next.markSettled();
        }
        current = next;
        claims.adopted(next);
        boolean acting = actingAfterAdoption.test(before);
        events.accept(new OwnershipEvent.MembershipChanged(config.group(), next.epoch,
                before == null ? MembershipView.empty(0) : before.view, next.view, acting));
        if (next.settledByAcknowledgement()) {
            events.accept(new OwnershipEvent.Settled(config.group(), next.epoch, next.view));
        }
    }

    /** Rule M9: {@code registry} re-confirms {@code view} only when it provably shows the same view. */
    private boolean sameView(Registry registry, EpochView view) {
        if (config.has(GroupConfig.Defect.SAME_EPOCH_IS_SAME_VIEW)) {
            return registry.epoch() == view.epoch;
        }
        return registry.sameViewAs(view.registry);
    }

    /**
     * Rule M3: every other member acknowledged the epoch in an incarnation that is not young (in a young one, the
     * members of the deleted registry, who may still act under their old views, are in no entry: a member alone in a
     * registry it created is not "acknowledged by everyone").
     */
    private boolean settlesByAcknowledgement(Registry registry) {
        if (acknowledgementsTrustedFrom != 0 && time.nanoTime() - acknowledgementsTrustedFrom < 0) {
            return false;
        }
        boolean young = registry.young() && !config.has(GroupConfig.Defect.YOUNG_REGISTRY_SETTLED_BY_ACKS);
        return !young && registry.acknowledgedByAllBut(config.memberId());
    }
}
