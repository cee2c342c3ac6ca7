package dev.hoplock.core.ownership;

import org.jspecify.annotations.Nullable;

import java.util.function.Consumer;

/**
 * The epoch view this member acts under ({@link #current()}, what the hot path reads) and how a registry version that
 * a request showed becomes it: rules M2 and M3 are set here, and an epoch going back (M9) is reported here.
 *
 * <p>Guarantees: a view is confirmed only until {@code t0 + ttl - margin} on both clocks, {@code t0} taken before the
 * request whose answer showed it (M2); a new epoch is settled by acknowledgements only when every other member
 * acknowledged it in a registry that existed before, else once a whole {@code ttl} has passed since the answer that
 * first showed it (M3); the previous view is chained only when the new epoch is exactly one above it (M4's chain,
 * broken by skipped epochs). Called under the membership loop's lock; {@link #current()} is read without it.
 */
final class ViewAdoption {

    private final GroupConfig config;
    private final ClaimBook claims;
    private final Consumer<OwnershipEvent> events;
    private final Consumer<String> problems;
    private final long ttlNanos;
    private final long usableNanos;
    private volatile @Nullable EpochView current;

    ViewAdoption(GroupConfig config, ClaimBook claims, Consumer<OwnershipEvent> events, Consumer<String> problems) {
        this.config = config;
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
     * {@code answered} (monotonic); {@code created} when this member's write created the registry.
     * Rule M2: the view may be acted under until {@code t0 + ttl - margin} on both clocks.
     */
    void adopt(Registry registry, long t0, long w0, long answered, boolean created) {
        EpochView before = current;
        long deadline = t0 + usableNanos;
        long wallDeadline = w0 + usableNanos / 1_000_000;
        if (config.has(GroupConfig.Defect.NO_VIEW_DEADLINE)) {
            deadline = t0 + Long.MAX_VALUE / 4;
            wallDeadline = Long.MAX_VALUE / 4;
        }
        if (before != null && registry.epoch() == before.epoch) {
            before.confirm(deadline, wallDeadline);
            if (registry.acknowledgedByAllBut(config.memberId()) && !before.settledByAcknowledgement()) {
                before.markSettled();
                events.accept(new OwnershipEvent.Settled(config.group(), before.epoch, before.view));
            }
            return;
        }
        if (before != null && registry.epoch() < before.epoch) {
            // Rule M9: epochs only rise; one going back is a re-created registry, reported, and starts a new chain.
            problems.accept(OwnershipProblems.epochWentBack(before.epoch, registry.epoch()));
        }
        EpochView previous = before != null && registry.epoch() == before.epoch + 1 ? before : null;
        // Rule M3: the hand-over grace is a whole TTL from the answer that first showed the epoch.
        long graceEnd = answered + ttlNanos;
        if (config.has(GroupConfig.Defect.SETTLE_AT_ONCE)) {
            graceEnd = answered;
        }
        EpochView next = new EpochView(registry, config.memberId(), previous, graceEnd);
        next.confirm(deadline, wallDeadline);
        // Rule M3: settled by acknowledgements only when the registry existed before (a created one waits the grace).
        if (!created && registry.acknowledgedByAllBut(config.memberId())) {
            next.markSettled();
        }
        current = next;
        claims.adopted(next);
        events.accept(new OwnershipEvent.MembershipChanged(config.group(), next.epoch,
                before == null ? MembershipView.empty(0) : before.view, next.view));
        if (next.settledByAcknowledgement()) {
            events.accept(new OwnershipEvent.Settled(config.group(), next.epoch, next.view));
        }
    }
}
