package dev.hoplock.core.election;

import dev.hoplock.core.backend.AsyncBackend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.StoreCapabilities;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.core.internal.lease.VerificationGate;
import dev.hoplock.core.internal.lease.VerificationGate.Next;
import dev.hoplock.core.internal.lease.LeaseTimes;
import dev.hoplock.core.internal.lease.Owned;
import dev.hoplock.core.internal.lease.RequestBook;
import dev.hoplock.core.internal.lease.TakeoverDecision;
import dev.hoplock.core.internal.lease.Term;
import dev.hoplock.core.internal.lease.UnknownWrites;
import dev.hoplock.core.internal.runtime.EngineRuntime;
import dev.hoplock.core.internal.runtime.LoopTimers;
import dev.hoplock.core.time.Scheduler;
import dev.hoplock.core.time.TimeSource;
import org.jspecify.annotations.Nullable;

import java.time.Duration;

/**
 * The lease loop of one {@link Elector}: a state machine driven by its timers and by the store's answers, one request
 * at a time. Each transition names the rule of the elector's safety argument it implements (rules 0 to 7, ids E0 to
 * E7, as in {@link Elector}'s Javadoc); it drives the types that implement them.
 *
 * <pre>
 *   step ── store not verified ─────────────► verify (rule 0)
 *        ── release requested ──────────────► release (rule 7), or read until our version is proven
 *        ── owned and leading ──────────────► renew (rules 1, 3)
 *        ── owned, not leading ─────────────► acquire a new term on our own version (rule 6)
 *        ── otherwise ──────────────────────► read ─► adopt (rule 5) | decide takeover (rule 4) ─► acquire | wait
 * </pre>
 *
 * <p>Guarantees: every state change happens holding this object's lock (on a timer or on the thread that completes a
 * request), and the loop's own state (the version owned, a release asked for, stopping) changes only through
 * {@link #transition(Change)}; at most one request is in flight ({@link RequestBook}); a term past its deadline is
 * ended before any transition ({@link Leadership#endIfPastDeadline}); an unexpected exception is reported and the
 * loop goes on after a poll ({@link #guarded}). The lifecycle (start, step down, close) is in {@link LeaseLifecycle},
 * the read and what follows its answer in {@link LeaseReads}, the writes in {@link LeaseWrites}; all share the lock.
 */
final class LeaseLoop {

    final ElectorSettings settings;
    final AsyncBackend backend;
    final TimeSource time;
    final LoopTimers timers;
    final EventHub events;
    final ProblemReporter problems;
    final VerificationGate verification;
    final RequestBook requests;
    final Leadership leadership;
    final RecordWatch watch;
    final UnknownWrites unknown = new UnknownWrites();
    final StoreHealth health;
    final Release release;
    final LeaseTimes times;
    private final LeaseWrites writes;
    private final LeaseReads reads;

    // ---- guarded by this; changed only by transition(Change) ----
    private boolean stopping;
    private boolean releaseRequested;
    private @Nullable Owned owned;
    private Scheduler.@Nullable Cancellable nextStep;
    private long campaignPausedUntil;
    private boolean campaignPaused;

    LeaseLoop(ElectorSettings settings, EngineRuntime runtime) {
        this.settings = settings;
        this.time = runtime.time();
        this.backend = runtime.backend();
        this.times = new LeaseTimes(settings);
        this.timers = runtime.timers(this::schedulerFailed);
        this.events = new EventHub(settings.key(), time::wallNow, runtime.eventExecutor());
        this.leadership = new Leadership(this, settings, time, timers, events, this::lastError, () -> stopping,
                this::onFence);
        this.problems = new ProblemReporter(settings.key(), time, leadership::publish);
        this.health = new StoreHealth(settings.key(), time, problems);
        this.verification = ElectorVerdicts.gate(settings.key(), settings.releaseByDelete(), problems);
        this.requests = new RequestBook(this, timers, backend::describe, leadership::endIfPastDeadline, this::guarded);
        this.watch = new RecordWatch(settings, time, backend::describe, problems, leadership);
        this.release = new Release(settings, backend, requests, health, watch);
        this.writes = new LeaseWrites(this);
        this.reads = new LeaseReads(this, writes);
    }

    private @Nullable String lastError() {
        return health.lastError();
    }

    String key() {
        return settings.key();
    }

    String owner() {
        return settings.owner();
    }

    // ------------------------------------------------------------------ state

    /**
     * A change of this loop's state, naming what happened: {@link Own} a write of ours landed or was adopted (E1, E5);
     * {@code DISOWN} no version of ours is current any more; {@code REQUEST_RELEASE} a step-down asks for a release
     * once leader work stopped (E7); {@code DROP_RELEASE} that release is sent, or nothing of ours is left to release;
     * {@code STOP} the elector is closing (final).
     */
    sealed interface Change permits Change.Own, Change.Simple {
        record Own(Owned version) implements Change {
        }

        enum Simple implements Change { DISOWN, REQUEST_RELEASE, DROP_RELEASE, STOP }

        Simple DISOWN = Simple.DISOWN;
        Simple REQUEST_RELEASE = Simple.REQUEST_RELEASE;
        Simple DROP_RELEASE = Simple.DROP_RELEASE;
        Simple STOP = Simple.STOP;
    }

    /**
     * The one place where this loop's state changes (as Resilience4j's {@code CircuitBreakerStateMachine
     * .stateTransition}): the rule types ({@link LeaseWrites}, {@link LeaseLifecycle}, {@link Release}'s callbacks and
     * this loop) call it, under this object's lock.
     */
    void transition(Change change) {
        if (change instanceof Change.Own own) {
            owned = own.version();
            return;
        }
        switch ((Change.Simple) change) {
            case DISOWN -> owned = null;
            case REQUEST_RELEASE -> releaseRequested = true;
            case DROP_RELEASE -> releaseRequested = false;
            case STOP -> stopping = true;
        }
    }

    /** The version of the record this loop wrote last and still counts as its own, or null. */
    @Nullable Owned owned() {
        return owned;
    }

    boolean stopping() {
        return stopping;
    }

    /** True while a step-down's release (E7) waits to be sent. */
    boolean releaseRequested() {
        return releaseRequested;
    }

    // ------------------------------------------------------------------ transitions

    void step() {
        synchronized (this) {
            nextStep = null;
            leadership.endIfPastDeadline();
            if (stopping || requests.busy()) {
                return;
            }
            guarded("deciding the next request", this::stepLocked);
        }
    }

    private void stepLocked() {
        if (!verification.allowsCampaign()) {
            // Rule 0: before the store is verified the only request is its verification; once refused, none.
            if (verification.verifying()) {
                verifyStore();
            }
            return;
        }
        if (releaseRequested) {
            if (owned != null && settings.releaseTimeout().isNegative()) {
                transition(Change.DROP_RELEASE);
                transition(Change.DISOWN);
            } else if (owned != null) {
                // Rule 7: the release asked for by a step-down, once leader work stopped.
                transition(Change.DROP_RELEASE);
                release.send(owned, settings.releaseTimeout(), () -> transition(Change.DISOWN),
                        () -> scheduleStep(settings.pollInterval()));
                return;
            } else if (unknown.isEmpty()) {
                // Nothing of ours can be in the store: nothing to release.
                transition(Change.DROP_RELEASE);
            } else {
                // Rules 5 and 7: a write of ours may be the current version (a refused renewal leaves the one we held
                // in place): the request stays until a read proves the record ours (adopted, then released) or not.
                reads.readRecord();
                return;
            }
        }
        if (owned != null && leadership.isLeader()) {
            writes.renew();
        } else if (owned != null && campaignAllowed()) {
            // Rule 6: our own version, but its term ended: a new term at a new generation.
            writes.acquire(owned.handle(), TakeoverDecision.nextGeneration(watch.highestGeneration()));
        } else {
            reads.readRecord();
        }
    }

    /** Rule 0: asks the store what it honours; campaigns once it has what this elector needs. */
    private void verifyStore() {
        Duration timeout = settings.requestTimeout();
        requests.send(backend::verify, timeout, (@Nullable StoreCapabilities answered, @Nullable BackendException failure) -> {
            Next next = verification.onAnswer(answered, failure);
            if (next == Next.RETRY) {
                health.failed("verify", failure);
                scheduleStep(settings.pollInterval());
                return;
            }
            health.verified();
            if (next == Next.CAMPAIGN) {
                scheduleStep(Duration.ZERO);
            }
        });
    }

    /** Rule 2: the fence timer of {@code current} fired. */
    private void onFence(Term current) {
        synchronized (this) {
            guarded("checking the self-fencing deadline", () -> {
                if (current != leadership.term() || current.ended()) {
                    return;
                }
                if (current.isValid()) {
                    if (!requests.busy() && owned != null && times.renewalDueByWallClock(owned, time.wallMillis())) {
                        // The renewal timer counts monotonic time, which stood still during a suspend while the wall
                        // clock (and the wall deadline) moved on: renew now rather than lose the term by the wall clock.
                        scheduleStep(Duration.ZERO);
                    }
                    leadership.armFence(current);
                    return;
                }
                leadership.endIfPastDeadline();
                if (!requests.busy()) {
                    scheduleStep(Duration.ZERO);
                }
            });
        }
    }

    // ------------------------------------------------------------------ helpers

    /**
     * Runs one step of the loop so that an unexpected exception (a bug, or a backend breaking its contract, for example
     * answering null) is reported and retried after a poll instead of silently ending the loop. Safety does not depend
     * on this: a term still ends at its deadline.
     */
    void guarded(String activity, Runnable body) {
        try {
            body.run();
        } catch (RuntimeException e) {
            health.internalError(activity, e, ProblemMessages.internalError(key(), activity, e,
                    settings.pollInterval(), backend.describe()));
            if (!requests.busy() && !stopping) {
                scheduleStep(settings.pollInterval());
            }
        }
    }

    void scheduleStep(Duration delay) {
        if (stopping) {
            return;
        }
        cancelNextStep();
        nextStep = timers.schedule(this::step, releaseRequested ? Duration.ZERO : delay);
    }

    void cancelNextStep() {
        if (nextStep != null) {
            nextStep.cancel();
        }
        nextStep = null;
    }

    /** A read showed that no version of ours is current: a pending release has nothing left to release. */
    void dropReleaseIfNotOurs() {
        if (owned == null) {
            transition(Change.DROP_RELEASE);
        }
    }

    /** After a step-down: no campaign for one TTL, so that another node can take over. */
    void pauseCampaign() {
        campaignPaused = true;
        campaignPausedUntil = time.nanoTime() + settings.ttl().toNanos();
    }

    /**
     * Whether this elector may write a new term now. Never while a release is requested (rule 7): the request belongs
     * to the term that was stepped down, and a new term begun first would be released under its own leader work.
     */
    boolean campaignAllowed() {
        if (campaignPaused && time.nanoTime() - campaignPausedUntil >= 0) {
            campaignPaused = false;
        }
        return !campaignPaused && !stopping && !releaseRequested;
    }

    /** A timer could not be given to the scheduler; {@link LoopTimers} ran it on its fallback timer instead. */
    private void schedulerFailed(RuntimeException failure) {
        synchronized (this) {
            problems.reportError(ElectionEvent.ProblemKind.SCHEDULER_ERROR, "scheduler " + failure.getClass().getName(),
                    ProblemMessages.schedulerRefused(key(), failure), failure);
        }
    }
}
