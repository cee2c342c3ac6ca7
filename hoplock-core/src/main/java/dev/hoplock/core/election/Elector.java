package dev.hoplock.core.election;

import dev.hoplock.core.Holder;
import dev.hoplock.core.Lease;
import dev.hoplock.core.backend.AsyncBackend;
import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.internal.lease.Term;
import dev.hoplock.core.internal.runtime.EngineRuntime;
import dev.hoplock.core.time.Scheduler;
import dev.hoplock.core.time.TimeSource;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Elects at most one leader among all electors that share a lease key in one store, by a lease renewed with
 * compare-and-swap writes.
 *
 * <h2>Safety argument</h2>
 * The store is linearisable and every write is conditional on the handle last read or written, so at most one
 * elector's write succeeds against any version of the record. The rules below make "at most one elector runs leader
 * work at any instant" follow from that, assuming only that monotonic clocks on different machines advance at
 * nearly the same rate (the {@code safetyMargin} absorbs the difference), and that the store keeps the conditions
 * this elector relies on, which rule 0 checks. Each rule has a stable id, E0 to E7 (rule {@code n} is {@code En}); this
 * list is the one place where their text lives: the types that implement a rule say "Implements En", tests cite the id,
 * and named locks ({@code L1} ...) and ownership groups ({@code M1} to {@code M9}) build on them
 * ({@code RuleIdsTest} checks all three):
 * <ol start="0">
 *   <li><b>E0: Campaign only on a verified store.</b> Before its first request about the lease, the elector asks the store
 *       what it honours ({@link Backend#verify()}, bounded by the request timeout) and writes nothing until the answer
 *       shows every conditional request it needs ({@link dev.hoplock.core.backend.StoreCapabilities#requireFor}: create
 *       and swap; delete too when it releases by DELETE). A store that lacks one is never campaigned on (one
 *       {@link ElectionEvent.Problem}, the reason in {@link #status()}); a store that could not be asked is asked again
 *       every poll, with no other request meanwhile ({@code VerificationGate}, checked at every step).</li>
 *   <li><b>E1: Validity is anchored before the write, on both clocks.</b> The monotonic time {@code t0}, and right after
 *       it the wall time {@code wall(t0)}, are taken before a write is sent; the record says
 *       {@code expires_at = wall(t0) + ttl}, and this elector leads only until {@code t0 + ttl - safetyMargin} on its
 *       monotonic clock <em>and</em> until {@code wall(t0) + ttl - safetyMargin} on its wall clock, whichever comes
 *       first, whether or not a renewal is in flight. The monotonic deadline bounds a backward wall step; the wall
 *       deadline catches time the monotonic clock did not count (a suspended VM or laptop, a checkpoint restore), so a
 *       machine never wakes as leader on a lease that expired while it slept. A forward wall step ends the term early,
 *       which is safe. ({@code LeaseTimes} computes both deadlines; {@code LeaseWrites} takes {@code t0}.)</li>
 *   <li><b>E2: Self-fencing; every term ends.</b> {@link #isLeader()} compares both clocks with both deadlines on every
 *       call, so leader work stops on time even if the thread that would notice is late. Every term then ends, once,
 *       before anything else happens to the election and before the next term begins ({@code Leadership.end}, the one
 *       place that ends terms): {@link ElectionEvent.Lost} with its cause, open {@link LeaderScope}s told and their threads
 *       interrupted (a scope of work not bound to a thread, {@link #tryEnterLeaderScope(Runnable)}, runs its loss
 *       callback instead). A scope opened while the term ends is either told or refused, and a scope closed is never
 *       told afterwards; scopes open and close without a lock, so the gate on every call pays one compare-and-set
 *       each way and the end of the term pays for telling them ({@code OpenScopes}). A deadline that passed while no thread looked is noticed at the next step, answer or fence check
 *       (at least once per poll), so {@link ElectionEvent.Acquired} and {@link ElectionEvent.Lost} alternate.</li>
 *   <li><b>E3: Bounded requests.</b> A leader's request is abandoned at its deadline; no answer arriving later extends a
 *       term that has already ended ({@code RequestBook}: one request in flight, late answers ignored).</li>
 *   <li><b>E4: Takeover only after local observation.</b> A record held by another owner is taken over only when it is
 *       expired by this machine's wall clock <em>and</em> has stayed byte-for-byte unchanged (same handle) for a whole
 *       {@code ttl} on this machine's monotonic clock, counted from the answer of the first read that saw it. The
 *       holder wrote it before that read answered, so it stopped at least {@code safetyMargin} before the takeover,
 *       whatever the wall clocks say. A record written by a graceful release (no owner, expired) may be taken at
 *       once: its writer has already stopped. A record that disappears (deleted outside hoplock, or released by a
 *       delete, which a reader cannot tell apart) counts as a version of its own ({@code DeletedRecordRule}): a create
 *       does not check what it replaces, and the holder may have renewed or re-created the key unseen after the last
 *       read that saw it. Once this elector has seen the key present, it creates it only after the absence was
 *       observed for a whole {@code ttl} on its monotonic clock, counted from the answer of the <em>first</em> read
 *       that found it absent (the holder's last write took effect before that) with no failed read since (a failed
 *       read may hide a version that came and went), and for as long as the validity the last seen record showed
 *       when first seen (a longer-TTL holder may have renewed it unseen), and once that record's {@code expires_at}
 *       has passed by its wall clock. A {@link ElectionEvent.ProblemKind#RECORD_DELETED} problem names the key when
 *       the record was held by another owner. Deletion is detected, not prevented: a node that never saw the record
 *       (a fresh start) may still create it at once, a create sent before the delete may land after it, and a second
 *       delete between two reads cannot be told from the first. The decision is one pure function,
 *       {@code TakeoverDecision.decide}, over what {@code ObservationTracker} observed.</li>
 *   <li><b>E5: Unknown outcomes.</b> A write without an answer may have happened. So may a refused one: a client library
 *       that retries a write whose answer was lost meets the version its first attempt created (412); and a 409
 *       leaves the version this elector held in place. Such a version is adopted only if a later read finds exactly
 *       its owner, generation and nonce, with validity counted from the {@code t0} of the write that created it;
 *       otherwise this elector acts as if the write had failed, and once a read shows another writer's version, no
 *       earlier write of unknown outcome is adopted any more (a late create would land only after a delete, while that
 *       version's holder may still lead). A refused renewal ends the term at once (unless an
 *       earlier write's outcome is still unknown); adopting afterwards starts a new term with a new generation
 *       ({@code UnknownWrites}).</li>
 *   <li><b>E6: Fencing tokens.</b> Every acquisition writes a generation above every generation this elector has seen for
 *       the key, and a graceful release keeps the generation, so tokens increase at every change of holder
 *       ({@code TakeoverDecision.nextGeneration}, {@code Release}).</li>
 *   <li><b>E7: Release only after leader work stopped.</b> {@link #close()} and {@link #stepDown()} (so also
 *       {@link #lead} when its task returns, and the actuator) release the lease only once every scope of every term
 *       of this process has closed, waiting up to the release timeout; otherwise they keep the lease and let it
 *       expire, so no successor starts while this process still works. A release requested while the outcome of a
 *       write is unknown (a refused renewal) is kept until a read proves the record ours (then released) or not;
 *       while it is pending no new term begins, so a release can only ever end the term it was requested for
 *       ({@code Leadership.workStopped}, {@code LeaseLifecycle}).</li>
 * </ol>
 * A record that cannot be parsed counts as held (never as free) and can only be taken over after rule 4's local
 * observation; a record at generation {@code Long.MAX_VALUE} is never taken over (no higher token exists).
 *
 * <h2>Liveness</h2>
 * A leader retries a failed request after a poll, but never later than halfway to its deadline, so that the last
 * retry can still land. An unexpected exception in the loop is reported as a {@link ElectionEvent.Problem} and the
 * loop goes on after a poll; every timer goes through {@code LoopTimers}, so a scheduler that throws is reported
 * ({@link ElectionEvent.ProblemKind#SCHEDULER_ERROR}) and the timer runs on a fallback thread: the loop never stops
 * silently. Problems are reported once per kind and cause ({@code ProblemReporter}; their texts are built in
 * {@code ProblemMessages}), again only after recovery. With agreeing wall clocks a crashed leader is replaced within
 * about TTL + poll; a writer whose wall clock runs ahead by {@code s} delays that by up to {@code s}.
 *
 * <p>What this is not: consensus. It relies on the store's linearisability and on bounded clock-rate
 * drift, and it cannot stop leader work that ignores interruption and {@link LeaderContext#isLeading()}.
 *
 * <h2>Structure and threads</h2>
 * This class is the public facade; the loop is the package-private state machine {@code LeaseLoop} (with
 * {@code LeaseWrites} for the transitions that write), each transition naming the rule above it implements. State
 * changes happen under the loop's lock, on the scheduler's thread or on the thread that completes a backend request.
 * Events are delivered on the event executor. The elector owns the threads it creates ({@code EngineRuntime}) and
 * stops them when closed. {@link #isLeader()} takes no lock and makes no backend call, nor do opening and closing a
 * {@link LeaderScope}.
 */
public final class Elector implements AutoCloseable {

    private final ElectorSettings settings;
    private final LeaseLoop loop;
    private final LeaseLifecycle lifecycle;

    private static final AtomicInteger INSTANCES = new AtomicInteger();

    private Elector(Builder builder, ElectorSettings settings) {
        this.settings = settings;
        String suffix = settings.key() + "-" + INSTANCES.incrementAndGet();
        EngineRuntime runtime = builder.runtime.start(new EngineRuntime.ThreadNames("hoplock-elector-" + suffix,
                "hoplock-io-" + suffix, "hoplock-events-" + suffix, "hoplock-fallback-timer-" + suffix));
        this.loop = new LeaseLoop(settings, runtime);
        this.lifecycle = new LeaseLifecycle(loop, runtime::close);
    }

    /** Starts a builder for an elector over a blocking backend. */
    public static Builder builder(Backend backend, String key) {
        return new Builder(EngineRuntime.over(backend), key);
    }

    /** Starts a builder for an elector over a non-blocking backend (simulations). */
    public static Builder builder(AsyncBackend backend, String key) {
        return new Builder(EngineRuntime.over(backend), key);
    }

    // ------------------------------------------------------------------ public API

    /** The validated settings. */
    public ElectorSettings settings() {
        return settings;
    }

    /** The lease key. */
    public String key() {
        return settings.key();
    }

    /** This process's owner id. */
    public String owner() {
        return settings.owner();
    }

    /** Starts campaigning. Idempotent; a closed elector cannot be restarted. */
    public void start() {
        lifecycle.start();
    }

    /**
     * True while this process holds a lease whose self-fencing deadline has not passed (E2: both clocks against both
     * deadlines of E1). No lock, no backend call: a few volatile reads and the two clock reads.
     */
    public boolean isLeader() {
        Term current = loop.leadership.term();
        return current != null && current.isValid();
    }

    /** The lease while leading; empty otherwise. */
    public Optional<Lease> currentLease() {
        Term current = loop.leadership.term();
        return current != null && current.isValid() ? Optional.of(current.lease()) : Optional.empty();
    }

    /** Time left until the self-fencing deadline while leading, zero otherwise. No lock, no backend call. */
    public Duration timeLeft() {
        Term current = loop.leadership.term();
        return current != null && current.isValid() ? current.timeLeft() : Duration.ZERO;
    }

    /** The holder last seen in the store (this process included); empty when free or unknown. */
    public Optional<Holder> holder() {
        return loop.leadership.holder();
    }

    /**
     * Opens a scope for leader work on the calling thread if this process leads now; empty otherwise. No backend
     * call. See {@link LeaderScope} for what happens when the term ends while it is open.
     */
    public Optional<LeaderScope> enterLeaderScope(boolean interruptOnLoss) {
        return Optional.ofNullable(tryEnterLeaderScope(interruptOnLoss));
    }

    /**
     * {@link #enterLeaderScope(boolean)} for gates on a hot path: the scope, or null when this process does not lead
     * now, so that entering allocates nothing but the scope (the JIT does not always remove the {@code Optional}).
     * Same guarantees (E2: refused once either deadline has passed or the term ended; told, and the thread interrupted
     * if asked, when the term ends while it is open; E7: a release waits for it to close); no backend call, no lock:
     * opening and closing are one compare-and-set each on the usual path.
     */
    public @Nullable LeaderScope tryEnterLeaderScope(boolean interruptOnLoss) {
        Term current = loop.leadership.term();
        return current == null ? null : current.open(interruptOnLoss);
    }

    /**
     * Opens a scope for leader work that is not bound to a thread (a reactive subscription, a coroutine) if this
     * process leads now; null otherwise. No backend call. Instead of interrupting a thread, the end of the term while
     * the scope is open runs {@code onLoss}: at most once, never once {@link LeaderScope#close()} has returned (a
     * close on another thread waits for a callback already running), after the scope reports the loss
     * ({@link LeaderScope#wasLost()}, {@link LeaderScope#isLeading()} false). It runs on the thread that ends the
     * term (the elector's scheduler at the self-fencing deadline, or a thread completing a store request), possibly
     * under the elector's lock: it must return promptly and only hand the loss off (for example schedule the
     * cancellation of a subscription on another executor); it must not block, nor call this elector. What it throws
     * is logged. Everything else is as for {@link #tryEnterLeaderScope(boolean)}: the term ends at the self-fencing
     * deadline (E2) at the latest, and a release waits for the scope to close (E7).
     *
     * @param onLoss what the end of the term does to the work, instead of an interrupt
     */
    public @Nullable LeaderScope tryEnterLeaderScope(Runnable onLoss) {
        Objects.requireNonNull(onLoss, "onLoss");
        Term current = loop.leadership.term();
        return current == null ? null : current.open(onLoss);
    }

    /**
     * Where this elector's verification of the store stands (E0); {@link StoreVerification#VERIFIED} and
     * {@link StoreVerification#REFUSED} are final. No lock, no backend call: users that must not send a request to the
     * store before it passed (the per-key ownership group) read it on their own threads.
     */
    public StoreVerification storeVerification() {
        return loop.verification.state();
    }

    /** A snapshot for health checks. */
    public ElectorStatus status() {
        return lifecycle.status();
    }

    /** Events of this election; see {@link ElectionEvent} for the delivery guarantees. */
    public Flow.Publisher<ElectionEvent> events() {
        return loop.events;
    }

    /**
     * Calls {@code listener} for every event, on the event executor. Returns a handle that stops the calls.
     */
    public AutoCloseable addListener(Consumer<? super ElectionEvent> listener) {
        return loop.events.addListener(Objects.requireNonNull(listener, "listener"));
    }

    /**
     * Gives up leadership if held: leader work is told to stop, and this elector does not campaign again for one TTL,
     * so that another node can take over. The lease is released through the same gate as {@link #close()}: once every
     * scope of this process has closed, waiting up to the release timeout; if leader work is still running then, the
     * lease is kept and left to expire (logged). Returns false when not leading; returns before the release.
     */
    public boolean stepDown() {
        return lifecycle.stepDown();
    }

    /**
     * Runs {@code task} each time this process becomes leader, on the calling thread, until the elector stops.
     *
     * <ul>
     *   <li>The task's thread is interrupted when leadership ends; the task should return promptly. Then this method
     *       waits to be elected again and runs the task again.</li>
     *   <li>The task returns normally while still leading: the term ends (step down, lease released) and this method
     *       waits to be elected again, then runs the task again.</li>
     *   <li>The task throws while still leading: this process steps down and the exception is rethrown.</li>
     *   <li>The elector is closed, or the calling thread is interrupted: the elector is closed (lease released) and
     *       this method returns (with the interrupt flag set again in the second case).</li>
     * </ul>
     * Starts the elector if it was not started.
     */
    public void lead(LeaderTask task) throws Exception {
        LeadLoop.run(this, lifecycle, Objects.requireNonNull(task, "task"));
    }

    /**
     * Stops campaigning, tells leader work to stop, waits (up to the release timeout) for open scopes to close, and
     * releases the lease. Completes when done; never fails.
     */
    public CompletableFuture<Void> closeAsync() {
        return lifecycle.closeAsync();
    }

    /**
     * {@link #closeAsync()} and waits for it, bounded. Closing waits, in turn, for leader work to stop (up to the
     * release timeout, rule 7), for the request in flight (up to the request timeout: a renewal's answer may carry the
     * handle the release must name), and for the release itself (up to the release timeout again). So the bound is
     * the request timeout plus twice the release timeout, plus 5 s for event delivery and thread hand-offs; a negative
     * release timeout (no release) still waits its absolute value for leader work. Past the bound this method returns
     * and logs, and the close goes on in the background: the caller is never blocked for longer than that.
     */
    @Override
    public void close() {
        lifecycle.close();
    }

    /** True once {@link #close()} has been called. */
    public boolean isStopped() {
        return lifecycle.isStopped();
    }

    @Override
    public String toString() {
        return "Elector[" + key() + ", " + owner() + ", " + loop.leadership.role() + "]";
    }

    // ------------------------------------------------------------------ builder

    /**
     * Builds an elector: its settings (kept by an {@link ElectorSettings.Builder}, the one place that decides the
     * defaults: TTL 30 s, renew TTL/3, poll TTL/15, request timeout the renew interval, safety margin TTL/10, release
     * timeout 2 s, as Go hoplock; timing follows the TTL when only the TTL is set) and where its work runs. Null is
     * never a value: leave a setting unset to get its default.
     */
    public static final class Builder {
        private final EngineRuntime.Builder runtime;
        private final ElectorSettings.Builder settings;

        private Builder(EngineRuntime.Builder runtime, String key) {
            this.runtime = runtime;
            this.settings = ElectorSettings.builder(key);
        }

        /** This process's unique id; default {@code host:pid:random}. */
        public Builder owner(String owner) {
            settings.owner(owner);
            return this;
        }

        /** Lease duration; default 30 s. */
        public Builder ttl(Duration ttl) {
            settings.ttl(ttl);
            return this;
        }

        /** How often the leader renews; default TTL/3. */
        public Builder renewInterval(Duration renewInterval) {
            settings.renewInterval(renewInterval);
            return this;
        }

        /** How often a follower looks, and the retry delay after a failure; default TTL/15. */
        public Builder pollInterval(Duration pollInterval) {
            settings.pollInterval(pollInterval);
            return this;
        }

        /** Longest wait for one request; default the renew interval. */
        public Builder requestTimeout(Duration requestTimeout) {
            settings.requestTimeout(requestTimeout);
            return this;
        }

        /** How long before the lease's end the leader stops work; default TTL/10. */
        public Builder safetyMargin(Duration safetyMargin) {
            settings.safetyMargin(safetyMargin);
            return this;
        }

        /** Longest wait for the release on close; negative: skip the release. Default 2 s. */
        public Builder releaseTimeout(Duration releaseTimeout) {
            settings.releaseTimeout(releaseTimeout);
            return this;
        }

        /**
         * Release by conditional delete, as Go hoplock does (generation restarts at 1 afterwards). Default false.
         * Handover then takes about a TTL instead of a poll: a follower that saw the lease held cannot tell such a
         * release from a deletion outside hoplock, so it takes the key only after it stayed absent for a TTL from the
         * first read that found it absent and after the last seen {@code expires_at} (rule 4 of the safety argument).
         */
        public Builder releaseByDelete(boolean releaseByDelete) {
            settings.releaseByDelete(releaseByDelete);
            return this;
        }

        /** The clocks; default the system's. */
        public Builder timeSource(TimeSource time) {
            runtime.time(time);
            return this;
        }

        /** Where the loop's timers run; default a daemon thread owned by the elector. */
        public Builder scheduler(Scheduler scheduler) {
            runtime.scheduler(scheduler);
            return this;
        }

        /** Where timers run when the scheduler throws; default a daemon thread created on first need. For tests. */
        Builder fallbackScheduler(Scheduler fallbackScheduler) {
            runtime.fallbackScheduler(fallbackScheduler);
            return this;
        }

        /** Where blocking backend calls run; default a daemon thread pool owned by the elector. */
        public Builder ioExecutor(java.util.concurrent.Executor ioExecutor) {
            runtime.ioExecutor(ioExecutor);
            return this;
        }

        /** Where events are delivered; default a daemon thread owned by the elector. */
        public Builder eventExecutor(java.util.concurrent.Executor eventExecutor) {
            runtime.eventExecutor(eventExecutor);
            return this;
        }

        /** The settings as they will be used, validated (the same owner every time). */
        public ElectorSettings settings() {
            return settings.build();
        }

        /** Builds the elector (not started). */
        public Elector build() {
            return new Elector(this, settings());
        }
    }
}
