package dev.hoplock.core.election;

import dev.hoplock.core.Holder;
import dev.hoplock.core.Lease;
import dev.hoplock.core.internal.lease.Owned;
import dev.hoplock.core.internal.lease.Term;
import dev.hoplock.core.internal.runtime.LoopTimers;
import dev.hoplock.core.record.LeaseRecord;
import dev.hoplock.core.time.HumanDurations;
import dev.hoplock.core.time.Scheduler;
import dev.hoplock.core.time.TimeSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The leader side of an elector: its terms, its {@link Role}, the holder last seen, and the events that tell of them.
 * Rules 1, 2 and 7 of the {@link Elector}'s safety argument live here.
 *
 * <p>Guarantees:
 * <ul>
 *   <li><b>Rule 1.</b> A term's deadlines are the ones its caller computed from the write's {@code t0} and
 *       {@code expires_at}; a renewal never moves the monotonic deadline back ({@link Term#extend}).</li>
 *   <li><b>Rule 2.</b> {@link #end} is the one place that ends terms: once per term, before the next one begins
 *       ({@link #begin} ends the previous one first), with {@link LossCause#DEADLINE_PASSED} whenever the deadline has
 *       passed, whatever the caller saw; scopes are told (and interrupted) and {@link ElectionEvent.Lost} is published.
 *       So {@link ElectionEvent.Acquired} and {@link ElectionEvent.Lost} alternate. The fence timer runs at the
 *       earlier deadline and at least once per poll.</li>
 *   <li><b>Rule 7.</b> {@link #workStopped()} completes with true only once every scope of every term of this process
 *       has closed (false when the release timeout passes first).</li>
 * </ul>
 * The term, role and holder are readable without the lock (volatile); everything else runs under the lock given to
 * the constructor, whose waiters are woken at every change of role and every event.
 * <p>Implements E1 and E2 (terms begin and end here), with E7's wait for work to stop; text in {@link Elector}.
 */
final class Leadership {

    private static final Logger log = LoggerFactory.getLogger(Elector.class);

    private final Object lock;
    private final ElectorSettings settings;
    private final TimeSource time;
    private final LoopTimers timers;
    private final EventHub events;
    private final Supplier<@Nullable String> lastError;
    private final BooleanSupplier stopping;
    private final Consumer<Term> onFence;

    // ---- guarded by lock ----
    private Scheduler.@Nullable Cancellable fenceTimer;
    /** Terms of this process whose scopes may still be open: the release waits for all of them, not only the last. */
    private final List<Term> undrainedTerms = new ArrayList<>();
    private long lastTermGeneration = -1;

    // ---- read without lock ----
    private volatile @Nullable Term term;
    private volatile Role role = Role.NEW;
    private volatile @Nullable Holder holder;

    /**
     * @param lock      the elector's lock (its waiters are notified of every change)
     * @param lastError the last request error, named when a term ends at its deadline
     * @param stopping  whether the elector is closing (a term then ends in {@link Role#STOPPED})
     * @param onFence   runs (on a timer) at the earlier deadline of a term, and at least once per poll
     */
    Leadership(Object lock, ElectorSettings settings, TimeSource time, LoopTimers timers, EventHub events,
               Supplier<@Nullable String> lastError, BooleanSupplier stopping, Consumer<Term> onFence) {
        this.lock = lock;
        this.settings = settings;
        this.time = time;
        this.timers = timers;
        this.events = events;
        this.lastError = lastError;
        this.stopping = stopping;
        this.onFence = onFence;
    }

    /** The current (or last) term; null before the first. No lock. */
    @Nullable Term term() {
        return term;
    }

    /** True while a term is valid now (rule 2: both clocks against both deadlines). No lock. */
    boolean isLeader() {
        Term current = term;
        return current != null && current.isValid();
    }

    Role role() {
        return role;
    }

    Optional<Holder> holder() {
        return Optional.ofNullable(holder);
    }

    /** The generation of the last term begun, or -1. */
    long lastTermGeneration() {
        return lastTermGeneration;
    }

    /**
     * Begins a term on {@code owned} with the deadlines of rule 1; ends the previous term first (rule 2).
     */
    void begin(Owned owned, long deadlineNanos, long wallDeadlineMillis) {
        // Rule 2: a term ends (Lost, scopes told) before the next begins, so that Acquired and Lost alternate.
        end(LossCause.TAKEN_OVER, "replaced by a new term of this process at generation "
                + owned.record().generation());
        Lease lease = new Lease(settings.key(), settings.owner(), owned.record().generation(),
                owned.record().expiresAt());
        Term fresh = new Term(time, lease, deadlineNanos, wallDeadlineMillis);
        term = fresh;
        undrainedTerms.removeIf(t -> t.drained().isDone());
        undrainedTerms.add(fresh);
        lastTermGeneration = lease.generation();
        setRole(Role.LEADER);
        armFence(fresh);
        log.info("hoplock: {} leads '{}' at generation {}", settings.owner(), settings.key(), lease.generation());
        publish(new ElectionEvent.Acquired(settings.key(), time.wallNow(), lease));
    }

    /** Rule 1: a renewal of {@code current} on {@code record}, with the deadlines of its write. */
    void extend(Term current, LeaseRecord record, long deadlineNanos, long wallDeadlineMillis) {
        Lease lease = new Lease(settings.key(), settings.owner(), record.generation(), record.expiresAt());
        current.extend(lease, deadlineNanos, wallDeadlineMillis);
        armFence(current);
        publish(new ElectionEvent.Renewed(settings.key(), time.wallNow(), lease));
    }

    /**
     * The fence timer runs at the earlier of the two deadlines as they stand now, and at least once per poll: the
     * scheduler counts monotonic time, so a wall deadline that comes closer later (a wall step, a resumed suspend) is
     * noticed by the gate at once and by the loop within a poll, which then tells the scopes and publishes the loss.
     */
    void armFence(Term current) {
        cancelFence();
        Duration left = min(current.timeLeft(), settings.pollInterval());
        fenceTimer = timers.schedule(() -> onFence.accept(current), left);
    }

    void cancelFence() {
        if (fenceTimer != null) {
            fenceTimer.cancel();
        }
    }

    /**
     * Rule 2: notices a deadline that passed while no thread looked (a stalled timer, a store that answers before the
     * fence timer runs): called at every step, every answer and by the fence timer, so that a term past its deadline
     * always ends with {@link LossCause#DEADLINE_PASSED} before anything else happens.
     */
    void endIfPastDeadline() {
        Term current = term;
        if (current != null && !current.ended() && !current.isValid()) {
            end(LossCause.DEADLINE_PASSED, "");
        }
    }

    /**
     * Rule 2: ends the current term if it has not ended; the one place that ends terms. A term whose deadline has
     * passed ends with {@link LossCause#DEADLINE_PASSED} whatever the caller saw, since that is when leadership
     * stopped. Scopes are told (and interrupted), {@link Role} changes, and {@link ElectionEvent.Lost} is published;
     * so every term ends, once, before the next begins.
     */
    void end(LossCause cause, String detail) {
        Term current = term;
        if (current == null || current.ended()) {
            return;
        }
        if (!current.isValid()) {
            String noticed = detail.isEmpty() ? "" : "; noticed when " + detail;
            String error = lastError.get();
            detail = "no renewal succeeded before the self-fencing deadline"
                    + (error == null ? "" : " (last error: " + error + ")") + noticed;
            cause = LossCause.DEADLINE_PASSED;
        }
        current.end();
        cancelFence();
        fenceTimer = null;
        setRole(stopping.getAsBoolean() ? Role.STOPPED : Role.FOLLOWER);
        Lease lease = current.lease();
        if (cause == LossCause.STOPPED || cause == LossCause.STEPPED_DOWN) {
            log.info("hoplock: {} stopped leading '{}' at generation {}: {}", settings.owner(), settings.key(),
                    lease.generation(), detail);
        } else {
            log.warn("hoplock: {} lost '{}' at generation {}: {}", settings.owner(), settings.key(),
                    lease.generation(), detail);
        }
        publish(new ElectionEvent.Lost(settings.key(), time.wallNow(), lease, cause, detail));
    }

    /**
     * Rule 7, the release gate shared by {@link Elector#close()} and {@link Elector#stepDown()} (and so by
     * {@link Elector#lead} and the actuator): completes with true once every scope of every term of this process has
     * closed, or with false when the release timeout passes first. Called after the current term ended, so that every
     * term it waits for has ended.
     */
    CompletableFuture<Boolean> workStopped() {
        undrainedTerms.removeIf(t -> t.drained().isDone());
        if (undrainedTerms.isEmpty()) {
            return CompletableFuture.completedFuture(true);
        }
        CompletableFuture<?>[] all = undrainedTerms.stream().map(Term::drained).toArray(CompletableFuture[]::new);
        return within(CompletableFuture.allOf(all).thenApply(v -> true), settings.releaseTimeout(), false);
    }

    /** Logs that leader work outlived the release timeout, so the lease is left to expire. */
    void warnWorkStillRunning(String activity, @Nullable Owned owned) {
        long open = undrainedTerms.stream().mapToLong(Term::openScopes).sum();
        log.warn("hoplock: {} '{}': leader work ({} open scope(s)) did not stop within the release timeout ({}), so the"
                + " lease is not released: it expires at {} and another node takes over after that", activity,
                settings.key(), open, HumanDurations.format(settings.releaseTimeout()),
                owned == null ? "its expiry" : owned.record().expiresAt());
    }

    void setRole(Role next) {
        role = next;
        lock.notifyAll();
    }

    /** Records the holder now in the store and publishes {@link ElectionEvent.LeaderObserved} when it changed. */
    void setHolder(@Nullable Holder next) {
        Holder previous = holder;
        holder = next;
        boolean same = previous == null ? next == null
                : next != null && previous.owner().equals(next.owner()) && previous.generation() == next.generation();
        if (!same) {
            publish(new ElectionEvent.LeaderObserved(settings.key(), time.wallNow(), Optional.ofNullable(next)));
        }
    }

    void publish(ElectionEvent event) {
        events.publish(event);
        lock.notifyAll();
    }

    private <T> CompletableFuture<T> within(CompletableFuture<T> future, Duration limit, T fallback) {
        if (future.isDone() || limit.isNegative()) {
            return future.isDone() ? future : CompletableFuture.completedFuture(fallback);
        }
        CompletableFuture<T> result = new CompletableFuture<>();
        Scheduler.Cancellable timer = timers.schedule(() -> result.complete(fallback), limit);
        future.whenComplete((value, error) -> {
            timer.cancel();
            result.complete(error == null ? value : fallback);
        });
        return result;
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }
}
