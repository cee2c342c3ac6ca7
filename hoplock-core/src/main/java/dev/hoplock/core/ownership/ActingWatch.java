package dev.hoplock.core.ownership;

import dev.hoplock.core.election.Elector;
import dev.hoplock.core.time.Scheduler;
import dev.hoplock.core.time.TimeSource;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Tells the listeners when this member stops acting although no new view said so: at the instant the adopted view's
 * confirmation lapses (rule M2) or the liveness term ends (rule M1), not when the store answers again. It decides
 * nothing: whether the member acts is {@link ActingGate#isMember()}; this only watches that answer.
 *
 * <p>Guarantees (every method is called under the membership loop's lock, so the events keep their order with the
 * {@link OwnershipEvent.MembershipChanged} events of {@link ViewAdoption}):
 * <ul>
 *   <li>While the member acts, a check is scheduled at the earlier of the view's deadline and the liveness term's end
 *       (on the monotonic clock, re-planned at every check), and run at once at every adoption and every acquired or
 *       lost liveness term. When a check finds that the member acted at the previous check and no longer does, under
 *       a view that registers it, and it is not leaving, it publishes one {@link OwnershipEvent.ActingStopped} for
 *       that view: at the lapse itself, never later than the check after it (a wall-clock jump ends a view early
 *       without a timer; the next check reports it).</li>
 *   <li>At most one per stop: a second one comes only after the member acted again.</li>
 *   <li>When the member acts again under the very view it stopped under (re-confirmed, no new epoch), one
 *       {@link OwnershipEvent.MembershipChanged} with that view as both previous and current says so; a new view
 *       adopted after the stop has had its own {@code MembershipChanged} from {@link ViewAdoption}, and nothing more is
 *       published for it.</li>
 * </ul>
 */
final class ActingWatch {

    /** The shortest re-check while the member still acts at a planned lapse (the clocks disagreed by a hair). */
    private static final Duration MINIMUM_RECHECK = Duration.ofMillis(1);

    private final String group;
    private final TimeSource time;
    private final Scheduler scheduler;
    private final Elector elector;
    private final Consumer<OwnershipEvent> events;
    private final Supplier<@Nullable EpochView> current;
    private final Runnable checkUnderLock;
    private BooleanSupplier acting = () -> false;
    private BooleanSupplier leaving = () -> false;

    private boolean actedAtLastCheck;
    private @Nullable EpochView stoppedUnder;
    private Scheduler.@Nullable Cancellable timer;
    private boolean closed;

    /**
     * @param checkUnderLock runs {@link #check()} under the membership loop's lock (the scheduled check uses it)
     */
    ActingWatch(String group, TimeSource time, Scheduler scheduler, Elector elector, Consumer<OwnershipEvent> events,
            Supplier<@Nullable EpochView> current, Runnable checkUnderLock) {
        this.group = group;
        this.time = time;
        this.scheduler = scheduler;
        this.elector = elector;
        this.events = events;
        this.current = current;
        this.checkUnderLock = checkUnderLock;
    }

    /** The gate's answers: whether the member acts now ({@link ActingGate#isMember()}) and whether it is leaving. */
    void watch(BooleanSupplier acting, BooleanSupplier leaving) {
        this.acting = acting;
        this.leaving = leaving;
    }

    /** Compares the gate's answer now with the last one, publishes what changed, and plans the next check. */
    void check() {
        if (closed) {
            return;
        }
        EpochView view = current.get();
        boolean acts = acting.getAsBoolean();
        if (acts) {
            EpochView stopped = stoppedUnder;
            if (stopped != null && stopped == view) {
                events.accept(new OwnershipEvent.MembershipChanged(group, view.epoch, view.view, view.view));
            }
            stoppedUnder = null;
            actedAtLastCheck = true;
            plan(view);
            return;
        }
        if (actedAtLastCheck && view != null && view.self != null && !leaving.getAsBoolean()) {
            stoppedUnder = view;
            events.accept(new OwnershipEvent.ActingStopped(group, view.epoch, view.view));
        } else if (view != stoppedUnder) {
            stoppedUnder = null;   // a new view came with its own MembershipChanged
        }
        actedAtLastCheck = false;
        cancel();
    }

    /** No more checks (the loop stopped). */
    void close() {
        closed = true;
        cancel();
    }

    /** Schedules the next check at the earlier of the view's deadline and the liveness term's end. */
    private void plan(@Nullable EpochView view) {
        cancel();
        if (view == null) {
            return;
        }
        long now = time.nanoTime();
        long untilView = view.deadlineNanos() - now;
        long untilTerm = elector.timeLeft().toNanos();
        long delay = Math.min(untilView, untilTerm);
        if (delay <= 0) {
            delay = MINIMUM_RECHECK.toNanos();
        }
        timer = scheduler.schedule(checkUnderLock, Duration.ofNanos(delay));
    }

    private void cancel() {
        Scheduler.Cancellable planned = timer;
        timer = null;
        if (planned != null) {
            planned.cancel();
        }
    }
}
