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
 * Tells the listeners every change of the gate's answer ({@link ActingGate#isMember()}: whether this member acts), at
 * the instant it changes, not when the store answers again: a stop at the instant the adopted view's confirmation
 * lapses (rule M2) or the liveness term ends (rule M1), a stop or a start that an adoption brings, and acting again
 * under the view last adopted; and tells the open claims at every stop. It decides nothing: whether the member acts
 * is {@link ActingGate#isMember()}; this only watches that answer, remembers what the listeners were last told, and
 * hands a "no" to the claims.
 *
 * <p>Guarantees (every method is called under the membership loop's lock, so the events keep their order with the
 * {@link OwnershipEvent.MembershipChanged} events of {@link ViewAdoption}):
 * <ul>
 *   <li>Listeners can follow the gate's answer from the events alone: each {@code MembershipChanged} of a new view
 *       carries the answer under that view ({@link #adopting}, asked by {@link ViewAdoption} just before it publishes
 *       it); an adoption that ends acting is preceded by one {@link OwnershipEvent.ActingStopped} for the view acted
 *       under (not the new one); a stop without a new view is one {@code ActingStopped} for the view adopted; acting
 *       again without a new view is one {@code MembershipChanged} with that view as both previous and current and
 *       {@code acting} true. A member that is leaving (rule M7) gets no {@code ActingStopped}: it stopped by its own
 *       leave, and its next {@code MembershipChanged} says {@code acting} false.</li>
 *   <li>The gate's stop is the claims' loss too: whenever a check or an adoption finds that the member does not act,
 *       every open claim is told ({@code loseClaims}: interrupted, or its loss callback run), at the same instant as
 *       the listeners, so work on a key does not outlast the confirmation of the view it was claimed under (rule M2)
 *       even while the member lease still renews. Without it, only a key's move, the end of the liveness term or a
 *       leave told a claim.</li>
 *   <li>At most one {@code ActingStopped} per stop: a second one comes only after the listeners were told it acts
 *       again.</li>
 *   <li>While the member acts, a check is scheduled at the instant the gate's answer would change with no event: the
 *       earliest of the view's deadlines (monotonic and wall, as {@link EpochView#fresh} compares them) and the
 *       liveness term's end ({@link Elector#timeLeft()}, also both clocks), re-planned at every check; a check runs at
 *       once at every adoption and every acquired or lost liveness term. A wall-clock step after the plan ends a view
 *       early without a timer; the next check (the next adoption at the latest) reports it.</li>
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
    private final Runnable loseClaims;
    private BooleanSupplier acting = () -> false;
    private BooleanSupplier leaving = () -> false;

    /** What the listeners were last told: that the member acts (under the view last adopted). */
    private boolean toldActing;
    private Scheduler.@Nullable Cancellable timer;
    private boolean closed;

    /**
     * @param checkUnderLock runs {@link #check()} under the membership loop's lock (the scheduled check uses it)
     */
    ActingWatch(String group, TimeSource time, Scheduler scheduler, Elector elector, Consumer<OwnershipEvent> events,
            Supplier<@Nullable EpochView> current, Runnable checkUnderLock, Runnable loseClaims) {
        this.group = group;
        this.time = time;
        this.scheduler = scheduler;
        this.elector = elector;
        this.events = events;
        this.current = current;
        this.checkUnderLock = checkUnderLock;
        this.loseClaims = loseClaims;
    }

    /** The gate's answers: whether the member acts now ({@link ActingGate#isMember()}) and whether it is leaving. */
    void watch(BooleanSupplier acting, BooleanSupplier leaving) {
        this.acting = acting;
        this.leaving = leaving;
    }

    /**
     * A new view was just adopted ({@link #current} answers it) and its {@link OwnershipEvent.MembershipChanged} is
     * about to be published: when the member acted under {@code before} and does not under the new view, tells the
     * stop under {@code before} first. Returns the gate's answer under the new view, for that event.
     */
    boolean adopting(@Nullable EpochView before) {
        boolean acts = !closed && acting.getAsBoolean();
        if (!acts) {
            loseClaims.run();
            if (toldActing) {
                stopped(before);
            }
        }
        toldActing = acts;
        return acts;
    }

    /** Compares the gate's answer now with what the listeners were last told, tells a change, plans the next check. */
    void check() {
        if (closed) {
            return;
        }
        EpochView view = current.get();
        boolean acts = acting.getAsBoolean();
        if (acts && view != null) {
            if (!toldActing) {
                toldActing = true;
                events.accept(new OwnershipEvent.MembershipChanged(group, view.epoch, view.view, view.view, true));
            }
            plan(view);
            return;
        }
        loseClaims.run();
        if (toldActing) {
            stopped(view);
        }
        toldActing = false;
        cancel();
    }

    /** No more checks (the loop stopped). */
    void close() {
        closed = true;
        cancel();
    }

    /** Tells the stop under {@code view}, the view acted under, unless leaving (its leave, rule M7, is the stop). */
    private void stopped(@Nullable EpochView view) {
        if (view != null && view.self != null && !leaving.getAsBoolean()) {
            events.accept(new OwnershipEvent.ActingStopped(group, view.epoch, view.view));
        }
    }

    /** Schedules the next check at the earliest instant the gate's answer may change without an event. */
    private void plan(EpochView view) {
        cancel();
        long untilView = view.nanosLeft(time.nanoTime(), time.wallMillis());
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
