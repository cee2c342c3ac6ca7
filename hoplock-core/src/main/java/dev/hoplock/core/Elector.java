package dev.hoplock.core;

import dev.hoplock.core.VerificationGate.Next;
import dev.hoplock.core.backend.AsyncBackend;
import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.StoreCapabilities;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.core.record.LeaseRecord;
import dev.hoplock.core.record.LeaseRecordCodec;
import dev.hoplock.core.record.MalformedLeaseRecordException;
import dev.hoplock.core.time.ExecutorScheduler;
import dev.hoplock.core.time.HumanDurations;
import dev.hoplock.core.time.Scheduler;
import dev.hoplock.core.time.TimeSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Elects at most one leader among all electors that share a lease key in one store, by a lease renewed with
 * compare-and-swap writes.
 *
 * <h2>Safety argument</h2>
 * The store is linearisable and every write is conditional on the handle last read or written, so at most one
 * elector's write succeeds against any version of the record. The rules below make "at most one elector runs leader
 * work at any instant" follow from that, assuming only that monotonic clocks on different machines advance at
 * nearly the same rate (the {@code safetyMargin} absorbs the difference), and that the store keeps the conditions
 * this elector relies on, which rule 0 checks:
 * <ol start="0">
 *   <li><b>Campaign only on a verified store.</b> Before its first request about the lease, the elector asks the store
 *       what it honours ({@link Backend#verify()}, bounded by the request timeout) and writes nothing until the answer
 *       shows every conditional request it needs ({@link dev.hoplock.core.backend.StoreCapabilities#requireFor}: create
 *       and swap; delete too when it releases by DELETE). A store that lacks one is never campaigned on (one
 *       {@link ElectionEvent.Problem}, the reason in {@link #status()}); a store that could not be asked is asked again
 *       every poll, with no other request meanwhile ({@code VerificationGate}, checked at every step).</li>
 *   <li><b>Validity is anchored before the write, on both clocks.</b> The monotonic time {@code t0}, and right after
 *       it the wall time {@code wall(t0)}, are taken before a write is sent; the record says
 *       {@code expires_at = wall(t0) + ttl}, and this elector leads only until {@code t0 + ttl - safetyMargin} on its
 *       monotonic clock <em>and</em> until {@code wall(t0) + ttl - safetyMargin} on its wall clock, whichever comes
 *       first, whether or not a renewal is in flight. The monotonic deadline bounds a backward wall step; the wall
 *       deadline catches time the monotonic clock did not count (a suspended VM or laptop, a checkpoint restore), so a
 *       machine never wakes as leader on a lease that expired while it slept. A forward wall step ends the term early,
 *       which is safe.</li>
 *   <li><b>Self-fencing; every term ends.</b> {@link #isLeader()} compares both clocks with both deadlines on every
 *       call, so leader work stops on time even if the thread that would notice is late. Every term then ends, once,
 *       before anything else happens to the election and before the next term begins ({@code endTerm}, the one place
 *       that ends terms): {@link ElectionEvent.Lost} with its cause, open {@link LeaderScope}s told and their threads
 *       interrupted. A deadline that passed while no thread looked is noticed at the next step, answer or fence check
 *       (at least once per poll), so {@link ElectionEvent.Acquired} and {@link ElectionEvent.Lost} alternate.</li>
 *   <li><b>Bounded requests.</b> A leader's request is abandoned at its deadline; no answer arriving later extends a
 *       term that has already ended.</li>
 *   <li><b>Takeover only after local observation.</b> A record held by another owner is taken over only when it is
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
 *       delete between two reads cannot be told from the first.</li>
 *   <li><b>Unknown outcomes.</b> A write without an answer may have happened. So may a refused one: a client library
 *       that retries a write whose answer was lost meets the version its first attempt created (412); and a 409
 *       leaves the version this elector held in place. Such a version is adopted only if a later read finds exactly
 *       its owner, generation and nonce, with validity counted from the {@code t0} of the write that created it;
 *       otherwise this elector acts as if the write had failed, and once a read shows another writer's version, no
 *       earlier write of unknown outcome is adopted any more (a late create would land only after a delete, while that
 *       version's holder may still lead). A refused renewal ends the term at once (unless an
 *       earlier write's outcome is still unknown); adopting afterwards starts a new term with a new generation.</li>
 *   <li><b>Fencing tokens.</b> Every acquisition writes a generation above every generation this elector has seen for
 *       the key, and a graceful release keeps the generation, so tokens increase at every change of holder.</li>
 *   <li><b>Release only after leader work stopped.</b> {@link #close()} and {@link #stepDown()} (so also
 *       {@link #lead} when its task returns, and the actuator) release the lease only once every scope of every term
 *       of this process has closed, waiting up to the release timeout; otherwise they keep the lease and let it
 *       expire, so no successor starts while this process still works. A release requested while the outcome of a
 *       write is unknown (a refused renewal) is kept until a read proves the record ours (then released) or not;
 *       while it is pending no new term begins, so a release can only ever end the term it was requested for.</li>
 * </ol>
 * A record that cannot be parsed counts as held (never as free) and can only be taken over after rule 4's local
 * observation; a record at generation {@code Long.MAX_VALUE} is never taken over (no higher token exists).
 *
 * <h2>Liveness</h2>
 * A leader retries a failed request after a poll, but never later than halfway to its deadline, so that the last
 * retry can still land. An unexpected exception in the loop is reported as a {@link ElectionEvent.Problem} and the
 * loop goes on after a poll; every timer goes through {@code LoopTimers}, so a scheduler that throws is reported
 * ({@link ElectionEvent.ProblemKind#SCHEDULER_ERROR}) and the timer runs on a fallback thread: the loop never stops
 * silently. Problems are reported once per kind and cause ({@code ProblemReporter}), again only after recovery. With agreeing wall clocks a crashed leader is replaced within about TTL + poll; a writer
 * whose wall clock runs ahead by {@code s} delays that by up to {@code s}.
 *
 * <p>What this is not: consensus. It relies on the store's linearisability and on bounded clock-rate
 * drift, and it cannot stop leader work that ignores interruption and {@link LeaderContext#isLeading()}.
 *
 * <h2>Threads</h2>
 * State changes happen under this object's lock, on the scheduler's thread or on the thread that completes a backend
 * request. Events are delivered on the event executor. {@link #isLeader()} takes no lock and makes no backend call.
 */
public final class Elector implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Elector.class);
    private static final Duration MIN_RETRY_GAP = Duration.ofMillis(50);
    private static final AtomicInteger THREADS = new AtomicInteger();

    private final ElectorSettings settings;
    private final AsyncBackend backend;
    private final TimeSource time;
    private final LoopTimers timers;
    private final EventHub events;
    private final ProblemReporter problems;
    private final VerificationGate verification;
    private final Runnable releaseResources;
    private final long ttlNanos;
    private final long safetyNanos;

    // ---- guarded by this ----
    private boolean stopping;
    private CompletableFuture<Void> closed;
    private Scheduler.Cancellable nextStep;
    private Scheduler.Cancellable fenceTimer;
    private final RequestBook requests;
    private final ObservationTracker tracker;
    private final UnknownWrites unknown = new UnknownWrites();
    private Owned owned;
    /** Terms of this process whose scopes may still be open: the release waits for all of them, not only the last. */
    private final List<Term> undrainedTerms = new ArrayList<>();
    private long highestGeneration;
    private long lastTermGeneration = -1;
    private long campaignPausedUntil;
    private boolean campaignPaused;
    private boolean releaseRequested;
    private Long lastAnswerNanos;
    private String lastError;

    // ---- read without lock ----
    private volatile Term term;
    private volatile Role role = Role.NEW;
    private volatile Holder holder;

    private Elector(Builder builder, ElectorSettings settings) {
        this.settings = settings;
        this.time = builder.time;
        this.ttlNanos = settings.ttl().toNanos();
        this.safetyNanos = settings.safetyMargin().toNanos();
        this.tracker = new ObservationTracker(settings.ttl());
        String threadSuffix = settings.key() + "-" + THREADS.incrementAndGet();

        ExecutorScheduler ownScheduler = null;
        Scheduler scheduler;
        if (builder.scheduler != null) {
            scheduler = builder.scheduler;
        } else {
            ownScheduler = new ExecutorScheduler("hoplock-elector-" + threadSuffix);
            scheduler = ownScheduler;
        }
        this.timers = new LoopTimers(scheduler, builder.fallbackScheduler, "hoplock-fallback-timer-" + threadSuffix,
                this::schedulerFailed);
        ExecutorService ownIo = null;
        if (builder.asyncBackend != null) {
            this.backend = builder.asyncBackend;
        } else {
            java.util.concurrent.Executor io = builder.ioExecutor;
            if (io == null) {
                ownIo = Executors.newCachedThreadPool(daemonThreads("hoplock-io-" + threadSuffix));
                io = ownIo;
            }
            this.backend = AsyncBackend.on(builder.backend, io);
        }
        ExecutorService ownEvents = null;
        java.util.concurrent.Executor eventExecutor = builder.eventExecutor;
        if (eventExecutor == null) {
            ownEvents = Executors.newSingleThreadExecutor(daemonThreads("hoplock-events-" + threadSuffix));
            eventExecutor = ownEvents;
        }
        this.events = new EventHub(settings.key(), time::wallNow, eventExecutor);
        this.problems = new ProblemReporter(settings.key(), time, this::publish);
        this.verification = new VerificationGate(settings.key(), settings.releaseByDelete(), problems);
        this.requests = new RequestBook(this, timers, backend::describe, this::endTermIfPastDeadline, this::guarded);
        ExecutorScheduler schedulerToClose = ownScheduler;
        ExecutorService ioToClose = ownIo;
        ExecutorService eventsToClose = ownEvents;
        this.releaseResources = () -> {
            timers.close();
            if (schedulerToClose != null) {
                schedulerToClose.close();
            }
            if (ioToClose != null) {
                ioToClose.shutdown();
            }
            if (eventsToClose != null) {
                eventsToClose.shutdown();
            }
        };
    }

    /** Starts a builder for an elector over a blocking backend. */
    public static Builder builder(Backend backend, String key) {
        return new Builder(Objects.requireNonNull(backend, "backend"), null, key);
    }

    /** Starts a builder for an elector over a non-blocking backend (simulations). */
    public static Builder builder(AsyncBackend backend, String key) {
        return new Builder(null, Objects.requireNonNull(backend, "backend"), key);
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
        synchronized (this) {
            if (role == Role.STOPPED || stopping) {
                throw new IllegalStateException("elector for '" + key() + "' is closed; build a new one");
            }
            if (role != Role.NEW) {
                return;
            }
            setRole(Role.FOLLOWER);
            log.info("hoplock: elector for '{}' started as {} over {} (ttl {}, renew {}, poll {})", key(), owner(),
                    backend.describe(), HumanDurations.format(settings.ttl()),
                    HumanDurations.format(settings.renewInterval()), HumanDurations.format(settings.pollInterval()));
            scheduleStep(Duration.ZERO);
        }
    }

    /**
     * True while this process holds a lease whose self-fencing deadline has not passed. No lock, no backend call:
     * a few volatile reads and one monotonic clock read.
     */
    public boolean isLeader() {
        Term current = term;
        return current != null && current.isValid();
    }

    /** The lease while leading; empty otherwise. */
    public Optional<Lease> currentLease() {
        Term current = term;
        return current != null && current.isValid() ? Optional.of(current.lease()) : Optional.empty();
    }

    /** Time left until the self-fencing deadline while leading, zero otherwise. No lock, no backend call. */
    public Duration timeLeft() {
        Term current = term;
        return current != null && current.isValid() ? current.timeLeft() : Duration.ZERO;
    }

    /** The holder last seen in the store (this process included); empty when free or unknown. */
    public Optional<Holder> holder() {
        return Optional.ofNullable(holder);
    }

    /**
     * Opens a scope for leader work on the calling thread if this process leads now; empty otherwise. No backend
     * call. See {@link LeaderScope} for what happens when the term ends while it is open.
     */
    public Optional<LeaderScope> enterLeaderScope(boolean interruptOnLoss) {
        Term current = term;
        if (current == null) {
            return Optional.empty();
        }
        return Optional.ofNullable(current.open(interruptOnLoss));
    }

    /** A snapshot for health checks. */
    public ElectorStatus status() {
        synchronized (this) {
            Term current = term;
            boolean leading = current != null && current.isValid();
            Optional<Duration> since = lastAnswerNanos == null ? Optional.empty()
                    : Optional.of(Duration.ofNanos(Math.max(0, time.nanoTime() - lastAnswerNanos)));
            Role shown = role == Role.LEADER && !leading ? Role.FOLLOWER : role;
            return new ElectorStatus(key(), owner(), backend.describe(), shown,
                    leading ? Optional.of(current.lease()) : Optional.empty(),
                    leading ? current.timeLeft() : Duration.ZERO,
                    Optional.ofNullable(holder), since, Optional.ofNullable(lastError), verification.state(),
                    verification.capabilities(), verification.reason());
        }
    }

    /** Events of this election; see {@link ElectionEvent} for the delivery guarantees. */
    public Flow.Publisher<ElectionEvent> events() {
        return events;
    }

    /**
     * Calls {@code listener} for every event, on the event executor. Returns a handle that stops the calls.
     */
    public AutoCloseable addListener(Consumer<? super ElectionEvent> listener) {
        Objects.requireNonNull(listener, "listener");
        CompletableFuture<Flow.Subscription> subscription = new CompletableFuture<>();
        events.subscribe(new Flow.Subscriber<ElectionEvent>() {
            @Override
            public void onSubscribe(Flow.Subscription s) {
                subscription.complete(s);
                s.request(Long.MAX_VALUE);
            }

            @Override
            public void onNext(ElectionEvent item) {
                listener.accept(item);
            }

            @Override
            public void onError(Throwable throwable) {
                log.warn("hoplock: event stream of '{}' failed", key(), throwable);
            }

            @Override
            public void onComplete() {
            }
        });
        return () -> subscription.thenAccept(Flow.Subscription::cancel);
    }

    /**
     * Gives up leadership if held: leader work is told to stop, and this elector does not campaign again for one TTL,
     * so that another node can take over. The lease is released through the same gate as {@link #close()}: once every
     * scope of this process has closed, waiting up to the release timeout; if leader work is still running then, the
     * lease is kept and left to expire (logged). Returns false when not leading; returns before the release.
     */
    public boolean stepDown() {
        synchronized (this) {
            if (!isLeader()) {
                return false;
            }
            endTerm(LossCause.STEPPED_DOWN, "stepped down on request");
            pauseCampaign();
            if (settings.releaseTimeout().isNegative()) {
                releaseRequested = true;
                scheduleStep(Duration.ZERO);
                return true;
            }
            leaderWorkStopped().thenAccept(stoppedInTime -> {
                synchronized (this) {
                    if (stopping) {
                        return;
                    }
                    if (!stoppedInTime) {
                        warnWorkStillRunning("stepping down");
                        return;
                    }
                    releaseRequested = true;
                    scheduleStep(Duration.ZERO);
                }
            });
            return true;
        }
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
        Objects.requireNonNull(task, "task");
        start();
        while (true) {
            LeaderScope scope;
            try {
                scope = awaitLeadership();
            } catch (InterruptedException e) {
                close();
                Thread.currentThread().interrupt();
                return;
            }
            if (scope == null) {
                return;
            }
            Exception failure = null;
            try (scope) {
                task.run(scope);
            } catch (Exception e) {
                failure = e;
            }
            if (scope.wasLost()) {
                Thread.interrupted();
                if (isStopped()) {
                    return;
                }
                continue;
            }
            if (Thread.currentThread().isInterrupted()) {
                close();
                return;
            }
            if (failure != null) {
                stepDown();
                throw failure;
            }
            stepDown();
        }
    }

    /**
     * Stops campaigning, tells leader work to stop, waits (up to the release timeout) for open scopes to close, and
     * releases the lease. Completes when done; never fails.
     */
    public CompletableFuture<Void> closeAsync() {
        CompletableFuture<Boolean> workStopped;
        synchronized (this) {
            if (closed != null) {
                return closed;
            }
            closed = new CompletableFuture<>();
            stopping = true;
            cancel(nextStep);
            nextStep = null;
            endTerm(LossCause.STOPPED, "elector closed");
            workStopped = leaderWorkStopped();
        }
        CompletableFuture<Void> done = closed;
        workStopped
                .thenCompose(stoppedInTime -> requests.idle().thenApply(v -> stoppedInTime))
                .thenCompose(this::releaseOnClose)
                .whenComplete((v, e) -> {
                    if (e != null) {
                        log.warn("hoplock: closing the elector for '{}' failed", key(), e);
                    }
                    synchronized (this) {
                        setRole(Role.STOPPED);
                        cancel(fenceTimer);
                        requests.cancelTimeout();
                    }
                    log.info("hoplock: elector for '{}' ({}) stopped", key(), owner());
                    events.complete();
                    releaseResources.run();
                    done.complete(null);
                });
        return done;
    }

    /** {@link #closeAsync()} and waits for it (bounded by the request and release timeouts). */
    @Override
    public void close() {
        long bound = settings.requestTimeout().plus(settings.releaseTimeout().abs().multipliedBy(2)).toMillis() + 5_000;
        try {
            closeAsync().get(bound, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            log.warn("hoplock: elector for '{}' did not finish closing within {}", key(),
                    HumanDurations.format(Duration.ofMillis(bound)));
        }
    }

    /** True once {@link #close()} has been called. */
    public synchronized boolean isStopped() {
        return stopping;
    }

    @Override
    public String toString() {
        return "Elector[" + key() + ", " + owner() + ", " + role + "]";
    }

    // ------------------------------------------------------------------ the loop

    private void step() {
        synchronized (this) {
            nextStep = null;
            endTermIfPastDeadline();
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
                releaseRequested = false;
                owned = null;
            } else if (owned != null) {
                releaseRequested = false;
                release(settings.releaseTimeout(), () -> scheduleStep(settings.pollInterval()));
                return;
            } else if (unknown.isEmpty()) {
                // Nothing of ours can be in the store: nothing to release.
                releaseRequested = false;
            } else {
                // A write of ours may be the current version (a refused renewal leaves the one we held in place): the
                // request stays until a read proves the record ours (adopted, then released) or not ours.
                readRecord();
                return;
            }
        }
        if (owned != null && isLeader()) {
            renew();
        } else if (owned != null && campaignAllowed()) {
            acquire(owned.handle(), highestGeneration + 1);
        } else {
            readRecord();
        }
    }

    /** Rule 0: asks the store what it honours; campaigns once it has what this elector needs. */
    private void verifyStore() {
        Duration timeout = settings.requestTimeout();
        requests.send(backend::verify, timeout, (StoreCapabilities answered, BackendException failure) -> {
            Next next = verification.onAnswer(answered, failure);
            if (next == Next.RETRY) {
                noteFailure("verify", failure);
                scheduleStep(settings.pollInterval());
                return;
            }
            // Not counted as an answer about the lease (sinceStoreAnswered): a backend may verify without a request.
            lastError = null;
            problems.clear(ElectionEvent.ProblemKind.BACKEND_ERROR);
            if (next == Next.CAMPAIGN) {
                scheduleStep(Duration.ZERO);
            }
        });
    }

    private void readRecord() {
        Duration timeout = settings.requestTimeout();
        if (isLeader()) {
            timeout = min(timeout, term.timeLeft());
        }
        Duration bound = timeout;
        requests.send(() -> backend.read(key(), bound), bound, this::onRead);
    }

    private void onRead(Optional<StoredObject> result, BackendException failure) {
        if (failure != null) {
            noteFailure("read", failure);
            tracker.lostSight();
            Term current = term;
            scheduleStep(current != null && current.isValid() ? retryDelay(current) : settings.pollInterval());
            return;
        }
        noteAnswer();
        if (result.isEmpty()) {
            dropReleaseIfNotOurs();
            endTerm(LossCause.DELETED, "the lease record was deleted from " + backend.describe());
            Observation.Present before = tracker.present();
            forgetVersion();
            if (tracker.sawAbsent(time.nanoTime())) {
                reportDeletion(before);
            }
            decideTakeover();
            return;
        }
        StoredObject object = result.get();
        LeaseRecord record = null;
        String corruption = null;
        try {
            record = LeaseRecordCodec.decode(object.content());
        } catch (MalformedLeaseRecordException e) {
            corruption = e.getMessage();
        }
        UnknownWrites.Write mine = record == null ? null : unknown.provablyOurs(record);
        if (mine != null) {
            adopt(object.handle(), mine);
            return;
        }
        if (record == null || !record.owner().equals(owner())) {
            // Rule 5: another writer's version is current, so no write of unknown outcome is: a swap of ours named an
            // older handle and can never land now, and a create of ours can land only after someone deletes this
            // version, when its holder may still lead. Neither may be adopted later.
            unknown.otherWriterSeen();
        }
        dropReleaseIfNotOurs();
        endTerm(LossCause.TAKEN_OVER, "the lease record was changed by "
                + (record == null ? "an unknown writer" : describeOwner(record.owner())));
        observe(object.handle(), record, corruption);
        decideTakeover();
    }

    /** Rule 4 (and 6): acquire the version observed, or look again; the decision is {@link TakeoverDecision}'s. */
    private void decideTakeover() {
        if (!campaignAllowed()) {
            scheduleStep(settings.pollInterval());
            return;
        }
        Observation seen = tracker.current();
        long now = time.nanoTime();
        TakeoverDecision.Outcome outcome = TakeoverDecision.decide(seen, highestGeneration, now, time.wallNow(), settings);
        if (outcome instanceof TakeoverDecision.Acquire take) {
            if (take.reason() == TakeoverDecision.Why.CORRUPT_AND_UNCHANGED) {
                log.warn("hoplock: taking over the corrupt record of '{}' after it stayed unchanged for {}", key(),
                        HumanDurations.format(settings.ttl()));
            }
            acquire(take.expected(), take.generation());
        } else {
            scheduleStep(((TakeoverDecision.Wait) outcome).delay());
        }
    }

    /**
     * A read found the key absent after it was seen present ({@link DeletedRecordRule}, rule 4): reported when the
     * version seen last was held by another owner, since that holder may still lead. The absence after a release or
     * after this process's own record disappears is observed as well, without a report.
     */
    private void reportDeletion(Observation.Present before) {
        if (before == null || (before.record() != null
                && (before.record().isReleased() || before.record().owner().equals(owner())))) {
            return;
        }
        String heldBy = before.record() == null ? "a corrupt record"
                : describeOwner(before.record().owner()) + " at generation " + before.record().generation();
        problems.report(ElectionEvent.ProblemKind.RECORD_DELETED, "deleted", "the lease record of '" + key() + "' in "
                + backend.describe() + " disappeared while held by " + heldBy + ": it was deleted outside hoplock (or"
                + " released by a delete, as Go hoplock and releaseByDelete do). Its holder may still lead, so the key"
                + " counts as held until it has stayed absent for at least " + HumanDurations.format(settings.ttl())
                + " on this machine's clock and the expiry it showed has passed. Deletion is detected, not prevented:"
                + " do not delete the lease object of a running election");
    }

    /** Writes a new term's record: create ({@code expected} NONE) or take over the version {@code expected}. */
    private void acquire(Handle expected, long generation) {
        if (generation <= 0) {
            // The highest generation seen is Long.MAX_VALUE (reported by observe): there is no higher fencing token.
            scheduleStep(settings.pollInterval());
            return;
        }
        long t0 = time.nanoTime();
        LeaseRecord record = new LeaseRecord(generation, time.wallNow().plusNanos(ttlNanos), owner(), nonce());
        Duration timeout = min(settings.requestTimeout(), Duration.ofNanos(ttlNanos - safetyNanos));
        byte[] bytes = LeaseRecordCodec.encode(record);
        requests.send(() -> backend.write(key(), expected, bytes, timeout), timeout, (WriteResult result, BackendException failure) -> {
            if (failure != null) {
                unknown.remember(record, t0);
                noteFailure(expected.isNone() ? "create" : "take over", failure);
                scheduleStep(settings.pollInterval());
                return;
            }
            noteAnswer();
            if (result instanceof WriteResult.Written written) {
                unknown.settled();
                owned = new Owned(written.handle(), record, t0);
                highestGeneration = Math.max(highestGeneration, generation);
                observe(written.handle(), record, null);
                beginTerm();
            } else {
                // Lost the race (or our own version is gone): look again after a poll. The refusal may also hide our
                // own write (see rememberRefused), which the next read then adopts.
                rememberRefused(record, t0);
                scheduleStep(settings.pollInterval());
            }
        });
    }

    private void renew() {
        Term current = term;
        long t0 = time.nanoTime();
        LeaseRecord record = new LeaseRecord(owned.record().generation(), time.wallNow().plusNanos(ttlNanos), owner(),
                nonce());
        Duration timeout = min(settings.requestTimeout(), current.timeLeft());
        byte[] bytes = LeaseRecordCodec.encode(record);
        Handle expected = owned.handle();
        requests.send(() -> backend.write(key(), expected, bytes, timeout), timeout, (WriteResult result, BackendException failure) -> {
            if (failure != null) {
                unknown.remember(record, t0);
                noteFailure("renew", failure);
                scheduleStep(retryDelay(current));
                return;
            }
            noteAnswer();
            if (result instanceof WriteResult.Written written) {
                unknown.settled();
                owned = new Owned(written.handle(), record, t0);
                observe(written.handle(), record, null);
                extendTerm(current, record, t0);
                return;
            }
            WriteResult.Refusal refusal = ((WriteResult.Refused) result).reason();
            boolean earlierUnknown = !unknown.isEmpty();
            rememberRefused(record, t0);
            if (!earlierUnknown) {
                endTerm(refusal == WriteResult.Refusal.NOT_FOUND ? LossCause.DELETED : LossCause.TAKEN_OVER,
                        "renewal refused by " + backend.describe() + ": "
                                + (refusal == WriteResult.Refusal.NOT_FOUND ? "the record is gone" : "the record changed"));
            }
            // With writes of unknown outcome, the change may be ours: read and check before deciding.
            scheduleStep(Duration.ZERO);
        });
    }

    /** A write whose outcome was unknown turned out to have happened. */
    private void adopt(Handle handle, UnknownWrites.Write write) {
        unknown.settled();
        owned = new Owned(handle, write.record(), write.t0());
        highestGeneration = Math.max(highestGeneration, write.record().generation());
        observe(handle, write.record(), null);
        Term current = term;
        if (current != null && current.isValid() && current.lease().generation() == write.record().generation()) {
            extendTerm(current, write.record(), write.t0());
        } else if (write.record().generation() <= lastTermGeneration) {
            // A late renewal of a term that already ended: start a new term with a new generation.
            scheduleStep(Duration.ZERO);
        } else {
            beginTerm();
        }
    }

    private void beginTerm() {
        if (stopping) {
            return;
        }
        if (releaseRequested) {
            // Rule 7: a write of ours answered (or was adopted) after a step-down asked for a release; the release
            // comes first (the next step carries it out), and no term begins on a record about to be released.
            scheduleStep(Duration.ZERO);
            return;
        }
        long deadline = owned.t0() + ttlNanos - safetyNanos;
        long wallDeadline = wallDeadline(owned.record());
        if (time.nanoTime() - deadline >= 0 || time.wallMillis() >= wallDeadline) {
            // The write answered too late to lead on it; the record is still ours, so renew it as a new term.
            scheduleStep(Duration.ZERO);
            return;
        }
        // Rule: a term ends (Lost, scopes told) before the next begins, so that Acquired and Lost alternate.
        endTerm(LossCause.TAKEN_OVER, "replaced by a new term of this process at generation "
                + owned.record().generation());
        Lease lease = new Lease(key(), owner(), owned.record().generation(), owned.record().expiresAt());
        Term fresh = new Term(time, lease, deadline, wallDeadline);
        term = fresh;
        undrainedTerms.removeIf(t -> t.drained().isDone());
        undrainedTerms.add(fresh);
        lastTermGeneration = lease.generation();
        setRole(Role.LEADER);
        armFence(fresh);
        log.info("hoplock: {} leads '{}' at generation {}", owner(), key(), lease.generation());
        publish(new ElectionEvent.Acquired(key(), time.wallNow(), lease));
        scheduleStep(untilRenewal(owned.t0()));
    }

    private void extendTerm(Term current, LeaseRecord record, long t0) {
        if (stopping || current != term || !current.isValid()) {
            // The term ended while the write was in flight; the record is ours, so a new term starts next step.
            scheduleStep(Duration.ZERO);
            return;
        }
        Lease lease = new Lease(key(), owner(), record.generation(), record.expiresAt());
        current.extend(lease, t0 + ttlNanos - safetyNanos, wallDeadline(record));
        armFence(current);
        publish(new ElectionEvent.Renewed(key(), time.wallNow(), lease));
        scheduleStep(untilRenewal(t0));
    }

    /**
     * The fence timer runs at the earlier of the two deadlines as they stand now, and at least once per poll: the
     * scheduler counts monotonic time, so a wall deadline that comes closer later (a wall step, a resumed suspend) is
     * noticed by the gate at once and by the loop within a poll, which then tells the scopes and publishes the loss.
     */
    private void armFence(Term current) {
        cancel(fenceTimer);
        Duration left = min(current.timeLeft(), settings.pollInterval());
        fenceTimer = timers.schedule(() -> onFence(current), left);
    }

    private void onFence(Term current) {
        synchronized (this) {
            guarded("checking the self-fencing deadline", () -> {
                if (current != term || current.ended()) {
                    return;
                }
                if (current.isValid()) {
                    if (!requests.busy() && renewalDueByWallClock()) {
                        // The renewal timer counts monotonic time, which stood still during a suspend while the wall
                        // clock (and the wall deadline) moved on: renew now rather than lose the term by the wall clock.
                        scheduleStep(Duration.ZERO);
                    }
                    armFence(current);
                    return;
                }
                endTermIfPastDeadline();
                if (!requests.busy()) {
                    scheduleStep(Duration.ZERO);
                }
            });
        }
    }

    /**
     * Notices a deadline that passed while no thread looked (a stalled timer, a store that answers before the fence
     * timer runs): called at every step, every answer and by the fence timer, so that a term past its deadline always
     * ends with {@link LossCause#DEADLINE_PASSED} before anything else happens.
     */
    private void endTermIfPastDeadline() {
        Term current = term;
        if (current != null && !current.ended() && !current.isValid()) {
            endTerm(LossCause.DEADLINE_PASSED, "");
        }
    }

    /**
     * Ends the current term if it has not ended: the one place that ends terms. A term whose deadline has passed ends
     * with {@link LossCause#DEADLINE_PASSED} whatever the caller saw, since that is when leadership stopped. Scopes
     * are told (and interrupted), {@link Role} changes, and {@link ElectionEvent.Lost} is published; so every term
     * ends, once, before the next begins.
     */
    private void endTerm(LossCause cause, String detail) {
        Term current = term;
        if (current == null || current.ended()) {
            return;
        }
        if (!current.isValid()) {
            String noticed = detail.isEmpty() ? "" : "; noticed when " + detail;
            detail = "no renewal succeeded before the self-fencing deadline"
                    + (lastError == null ? "" : " (last error: " + lastError + ")") + noticed;
            cause = LossCause.DEADLINE_PASSED;
        }
        current.end();
        cancel(fenceTimer);
        fenceTimer = null;
        setRole(stopping ? Role.STOPPED : Role.FOLLOWER);
        Lease lease = current.lease();
        if (cause == LossCause.STOPPED || cause == LossCause.STEPPED_DOWN) {
            log.info("hoplock: {} stopped leading '{}' at generation {}: {}", owner(), key(), lease.generation(), detail);
        } else {
            log.warn("hoplock: {} lost '{}' at generation {}: {}", owner(), key(), lease.generation(), detail);
        }
        publish(new ElectionEvent.Lost(key(), time.wallNow(), lease, cause, detail));
    }

    private CompletableFuture<Void> releaseOnClose(boolean workStopped) {
        synchronized (this) {
            if (owned == null || settings.releaseTimeout().isNegative()) {
                return CompletableFuture.completedFuture(null);
            }
            if (!workStopped) {
                warnWorkStillRunning("closing");
                return CompletableFuture.completedFuture(null);
            }
            CompletableFuture<Void> released = new CompletableFuture<>();
            release(settings.releaseTimeout(), () -> released.complete(null));
            return released;
        }
    }

    /**
     * The release gate shared by {@link #close()} and {@link #stepDown()} (and so by {@link #lead} and the actuator):
     * completes with true once every scope of every term of this process has closed, or with false when the release
     * timeout passes first. Called after the current term ended, so that every term it waits for has ended.
     */
    private CompletableFuture<Boolean> leaderWorkStopped() {
        undrainedTerms.removeIf(t -> t.drained().isDone());
        if (undrainedTerms.isEmpty()) {
            return CompletableFuture.completedFuture(true);
        }
        CompletableFuture<?>[] all = undrainedTerms.stream().map(Term::drained).toArray(CompletableFuture[]::new);
        return within(CompletableFuture.allOf(all).thenApply(v -> true), settings.releaseTimeout(), false);
    }

    private void warnWorkStillRunning(String activity) {
        long open = undrainedTerms.stream().mapToLong(Term::openScopes).sum();
        log.warn("hoplock: {} '{}': leader work ({} open scope(s)) did not stop within the release timeout ({}), so the"
                + " lease is not released: it expires at {} and another node takes over after that", activity, key(),
                open, HumanDurations.format(settings.releaseTimeout()), owned == null ? "its expiry" : owned.record().expiresAt());
    }

    /** Releases the owned record: an expired record at the same generation, or a conditional delete. */
    private void release(Duration timeout, Runnable then) {
        Owned mine = owned;
        if (settings.releaseByDelete()) {
            requests.send(() -> backend.delete(key(), mine.handle(), timeout), timeout, (DeleteResult result, BackendException failure) -> {
                owned = null;
                if (failure != null) {
                    noteFailure("release", failure);
                } else {
                    noteAnswer();
                    if (result == DeleteResult.DELETED) {
                        forgetVersion();
                    } else {
                        warnReleaseRefused(mine, result.toString());
                    }
                }
                then.run();
            });
            return;
        }
        LeaseRecord record = LeaseRecord.released(mine.record().generation(), nonce());
        byte[] bytes = LeaseRecordCodec.encode(record);
        requests.send(() -> backend.write(key(), mine.handle(), bytes, timeout), timeout, (WriteResult result, BackendException failure) -> {
            owned = null;
            if (failure != null) {
                noteFailure("release", failure);
            } else {
                noteAnswer();
                if (result instanceof WriteResult.Written written) {
                    observe(written.handle(), record, null);
                    log.info("hoplock: {} released '{}' at generation {}", owner(), key(), record.generation());
                } else {
                    warnReleaseRefused(mine, ((WriteResult.Refused) result).reason().toString());
                }
            }
            then.run();
        });
    }

    private void warnReleaseRefused(Owned mine, String reason) {
        log.warn("hoplock: the release of '{}' by {} at generation {} was refused ({}): the record is no longer the"
                + " version this elector wrote, so it was left as it is; if it is still ours it expires at {}", key(),
                owner(), mine.record().generation(), reason, mine.record().expiresAt());
    }

    // ------------------------------------------------------------------ helpers

    /** Records what the store holds now and publishes a change of holder. */
    private void observe(Handle handle, LeaseRecord record, String corruption) {
        Observation.Present previous = tracker.present();
        if (!tracker.sawVersion(handle, record, time.nanoTime(), time.wallNow())) {
            return;
        }
        problems.clear(ElectionEvent.ProblemKind.RECORD_DELETED);
        if (record == null) {
            String message = "the lease record of '" + key() + "' in " + backend.describe() + " is corrupt: " + corruption
                    + ". It counts as held; it is taken over only after staying unchanged for "
                    + HumanDurations.format(settings.ttl()) + ". Fix: delete the object, or let hoplock replace it.";
            problems.reportError(ElectionEvent.ProblemKind.CORRUPT_RECORD, "corrupt", message, null);
            setHolder(new Holder("", highestGeneration, LeaseRecord.ZERO_TIME));
            return;
        }
        problems.clear(ElectionEvent.ProblemKind.CORRUPT_RECORD, "corrupt");
        if (record.generation() < highestGeneration) {
            String message = "the generation of '" + key() + "' went down from " + highestGeneration + " to "
                    + record.generation() + ": the record was deleted or rewritten outside hoplock (or a node releases"
                    + " by delete); new terms continue above " + highestGeneration;
            problems.report(ElectionEvent.ProblemKind.GENERATION_REGRESSED, "below by " + record.owner(), message);
        } else {
            problems.clear(ElectionEvent.ProblemKind.GENERATION_REGRESSED);
        }
        highestGeneration = Math.max(highestGeneration, record.generation());
        if (record.generation() == Long.MAX_VALUE
                && (previous == null || previous.record() == null || previous.record().generation() != Long.MAX_VALUE)) {
            String message = "the lease record of '" + key() + "' in " + backend.describe() + " has generation "
                    + Long.MAX_VALUE + ", the largest fencing token there is: no node can take it over without breaking"
                    + " fencing, so none will. Fix: delete the object once its holder has stopped (generations then"
                    + " restart at 1; reset what downstream systems remember of fencing tokens)";
            problems.reportError(ElectionEvent.ProblemKind.CORRUPT_RECORD, "max generation", message, null);
        }
        Instant now = time.wallNow();
        String skewCause = "skew " + record.owner() + " " + record.generation();
        if (record.expiresAt().isAfter(now.plusNanos(2 * ttlNanos))) {
            String message = "the lease record of '" + key() + "' written by " + describeOwner(record.owner())
                    + " at generation " + record.generation() + " expires at " + record.expiresAt() + ", "
                    + HumanDurations.format(Duration.between(now, record.expiresAt())) + " from now by this machine's"
                    + " clock, more than twice the TTL (" + HumanDurations.format(settings.ttl()) + "): the writer's"
                    + " clock runs ahead or its TTL is longer. No node takes the lease over before that instant by its"
                    + " own clock. Fix: correct the writer's clock (NTP) or TTL; if that writer is gone, delete the"
                    + " object";
            // Once per writer and generation (a term), not at every renewal: the cause keeps no instant or duration.
            problems.report(ElectionEvent.ProblemKind.CLOCK_SKEW, skewCause, message);
        } else {
            problems.clear(ElectionEvent.ProblemKind.CLOCK_SKEW, skewCause);
        }
        setHolder(record.isReleased() ? null : new Holder(record.owner(), record.generation(), record.expiresAt()));
    }

    /** No version is known to be current any more: a read found none, or our own delete removed ours. */
    private void forgetVersion() {
        tracker.forget();
        setHolder(null);
    }

    private void setHolder(Holder next) {
        Holder previous = holder;
        holder = next;
        boolean same = previous == null ? next == null
                : next != null && previous.owner().equals(next.owner()) && previous.generation() == next.generation();
        if (!same) {
            publish(new ElectionEvent.LeaderObserved(key(), time.wallNow(), Optional.ofNullable(next)));
        }
    }

    /**
     * A refused write leaves two versions that are provably ours if a read finds them: the one we held (a 409
     * ConditionalRequestConflict changes nothing) and the refused write itself (a client library that retries a write
     * whose answer was lost meets the version its first attempt created and reports 412). Both are remembered like
     * writes of unknown outcome, so the next read adopts them instead of waiting a TTL for our own record.
     */
    private void rememberRefused(LeaseRecord refused, long t0) {
        unknown.refused(owned, refused, t0);
        owned = null;
    }

    /**
     * Runs one step of the loop so that an unexpected exception (a bug, or a backend breaking its contract, for example
     * answering null) is reported and retried after a poll instead of silently ending the loop. Safety does not depend
     * on this: a term still ends at its deadline.
     */
    private void guarded(String activity, Runnable body) {
        try {
            body.run();
        } catch (RuntimeException e) {
            String message = "internal error in the elector of '" + key() + "' while " + activity + " (" + e
                    + "); it retries after " + HumanDurations.format(settings.pollInterval()) + ". This is a bug in"
                    + " hoplock or in the backend (" + backend.describe() + "): please report it";
            lastError = message;
            problems.reportError(ElectionEvent.ProblemKind.BACKEND_ERROR, "internal " + activity + " "
                    + e.getClass().getName(), message, e);
            if (!requests.busy() && !stopping) {
                scheduleStep(settings.pollInterval());
            }
        }
    }

    /**
     * A failed request: reported once per operation and error (numbers in the text, such as a timeout's duration, do
     * not make a new cause) until the store answers again.
     */
    private void noteFailure(String operation, BackendException failure) {
        String message = operation + " failed: " + failure.getMessage();
        lastError = message;
        problems.report(ElectionEvent.ProblemKind.BACKEND_ERROR, operation + " " + failure.kind() + " "
                + ProblemReporter.normalise(String.valueOf(failure.getMessage())), "'" + key() + "' " + message);
    }

    /** The store answered: failures are reported again when they recur. */
    private void noteAnswer() {
        lastAnswerNanos = time.nanoTime();
        lastError = null;
        problems.clear(ElectionEvent.ProblemKind.BACKEND_ERROR);
    }

    private void scheduleStep(Duration delay) {
        if (stopping) {
            return;
        }
        cancel(nextStep);
        nextStep = timers.schedule(this::step, releaseRequested ? Duration.ZERO : delay);
    }

    /**
     * Rule 1's wall deadline of a term on {@code record}: {@code expires_at - safetyMargin}, where {@code expires_at}
     * is {@code wall(t0) + ttl} read right after the monotonic {@code t0} of the same write.
     */
    private long wallDeadline(LeaseRecord record) {
        return record.expiresAt().minusNanos(safetyNanos).toEpochMilli();
    }

    /** Whether the renewal of the owned record is due by the wall clock: its write's wall time plus the renew interval. */
    private boolean renewalDueByWallClock() {
        if (owned == null) {
            return false;
        }
        long writtenAtMillis = owned.record().expiresAt().toEpochMilli() - settings.ttl().toMillis();
        return time.wallMillis() - writtenAtMillis >= settings.renewInterval().toMillis();
    }

    private Duration untilRenewal(long t0) {
        long due = t0 + settings.renewInterval().toNanos() - time.nanoTime();
        return Duration.ofNanos(Math.max(0, due));
    }

    /**
     * When a leader retries a failed request (a renewal, or the read that checks a refused renewal): after a poll, but
     * never so late that the retry cannot land before the term's deadline; with less than two polls left, halfway to
     * the deadline. With almost nothing left (under {@link #MIN_RETRY_GAP} or a tenth of a poll, whichever is less,
     * per retry) the term is left to end, so that fast failures near the deadline cause a few retries, not a burst.
     */
    private Duration retryDelay(Term current) {
        Duration left = current.timeLeft();
        Duration half = left.dividedBy(2);
        if (half.compareTo(min(MIN_RETRY_GAP, settings.pollInterval().dividedBy(10))) < 0) {
            return left;
        }
        return min(settings.pollInterval(), half);
    }

    /** A read showed that no version of ours is current: a pending release has nothing left to release. */
    private void dropReleaseIfNotOurs() {
        if (owned == null) {
            releaseRequested = false;
        }
    }

    private void pauseCampaign() {
        campaignPaused = true;
        campaignPausedUntil = time.nanoTime() + ttlNanos;
    }

    /**
     * Whether this elector may write a new term now. Never while a release is requested (rule 7): the request belongs
     * to the term that was stepped down, and a new term begun first would be released under its own leader work.
     */
    private boolean campaignAllowed() {
        if (campaignPaused && time.nanoTime() - campaignPausedUntil >= 0) {
            campaignPaused = false;
        }
        return !campaignPaused && !stopping && !releaseRequested;
    }

    private synchronized LeaderScope awaitLeadership() throws InterruptedException {
        while (true) {
            if (stopping) {
                return null;
            }
            Optional<LeaderScope> scope = enterLeaderScope(true);
            if (scope.isPresent()) {
                return scope.get();
            }
            wait(Math.max(1, settings.pollInterval().toMillis()));
        }
    }

    /** A timer could not be given to the scheduler; {@link LoopTimers} ran it on its fallback timer instead. */
    private void schedulerFailed(RuntimeException failure) {
        synchronized (this) {
            problems.reportError(ElectionEvent.ProblemKind.SCHEDULER_ERROR, "scheduler " + failure.getClass().getName(),
                    "the scheduler of the elector of '" + key() + "' refused a timer (" + failure + "); the elector runs"
                            + " its timers on a fallback thread until the scheduler takes them again. Fix the scheduler"
                            + " given to Elector.Builder.scheduler (shut down too early? a bounded queue?) or leave it"
                            + " unset", failure);
        }
    }

    private void setRole(Role next) {
        role = next;
        notifyAll();
    }

    private void publish(ElectionEvent event) {
        events.publish(event);
        notifyAll();
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

    private String describeOwner(String recordOwner) {
        return recordOwner.isEmpty() ? "an unnamed owner" : "'" + recordOwner + "'";
    }

    private static String nonce() {
        return OwnerIds.randomHex(8);
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    private static void cancel(Scheduler.Cancellable cancellable) {
        if (cancellable != null) {
            cancellable.cancel();
        }
    }

    private static java.util.concurrent.ThreadFactory daemonThreads(String name) {
        AtomicInteger counter = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, name + "-" + counter.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    // ------------------------------------------------------------------ builder

    /**
     * Settings of an elector, with Go hoplock's defaults: TTL 30 s, renew every TTL/3, poll every TTL/15, release
     * timeout 2 s. Timing defaults follow the TTL when only the TTL is set.
     */
    public static final class Builder {
        private final Backend backend;
        private final AsyncBackend asyncBackend;
        private final String key;
        private String owner;
        /** Generated once per builder, so that {@link #settings()} and {@link #build()} agree. */
        private String generatedOwner;
        private Duration ttl = ElectorSettings.DEFAULT_TTL;
        private Duration renewInterval;
        private Duration pollInterval;
        private Duration requestTimeout;
        private Duration safetyMargin;
        private Duration releaseTimeout = ElectorSettings.DEFAULT_RELEASE_TIMEOUT;
        private boolean releaseByDelete;
        private TimeSource time = TimeSource.system();
        private Scheduler scheduler;
        private Scheduler fallbackScheduler;
        private java.util.concurrent.Executor ioExecutor;
        private java.util.concurrent.Executor eventExecutor;

        private Builder(Backend backend, AsyncBackend asyncBackend, String key) {
            this.backend = backend;
            this.asyncBackend = asyncBackend;
            this.key = key;
        }

        /** This process's unique id; default {@code host:pid:random}. */
        public Builder owner(String owner) {
            this.owner = owner;
            return this;
        }

        /** Lease duration; default 30 s. */
        public Builder ttl(Duration ttl) {
            this.ttl = ttl;
            return this;
        }

        /** How often the leader renews; default TTL/3. */
        public Builder renewInterval(Duration renewInterval) {
            this.renewInterval = renewInterval;
            return this;
        }

        /** How often a follower looks, and the retry delay after a failure; default TTL/15. */
        public Builder pollInterval(Duration pollInterval) {
            this.pollInterval = pollInterval;
            return this;
        }

        /** Longest wait for one request; default the renew interval. */
        public Builder requestTimeout(Duration requestTimeout) {
            this.requestTimeout = requestTimeout;
            return this;
        }

        /** How long before the lease's end the leader stops work; default TTL/10. */
        public Builder safetyMargin(Duration safetyMargin) {
            this.safetyMargin = safetyMargin;
            return this;
        }

        /** Longest wait for the release on close; negative: skip the release. Default 2 s. */
        public Builder releaseTimeout(Duration releaseTimeout) {
            this.releaseTimeout = releaseTimeout;
            return this;
        }

        /**
         * Release by conditional delete, as Go hoplock does (generation restarts at 1 afterwards). Default false.
         * Handover then takes about a TTL instead of a poll: a follower that saw the lease held cannot tell such a
         * release from a deletion outside hoplock, so it takes the key only after it stayed absent for a TTL from the
         * first read that found it absent and after the last seen {@code expires_at} (rule 4 of the safety argument).
         */
        public Builder releaseByDelete(boolean releaseByDelete) {
            this.releaseByDelete = releaseByDelete;
            return this;
        }

        /** The clocks; default the system's. */
        public Builder timeSource(TimeSource time) {
            this.time = Objects.requireNonNull(time, "time");
            return this;
        }

        /** Where the loop's timers run; default a daemon thread owned by the elector. */
        public Builder scheduler(Scheduler scheduler) {
            this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
            return this;
        }

        /** Where timers run when the scheduler throws; default a daemon thread created on first need. For tests. */
        Builder fallbackScheduler(Scheduler fallbackScheduler) {
            this.fallbackScheduler = Objects.requireNonNull(fallbackScheduler, "fallbackScheduler");
            return this;
        }

        /** Where blocking backend calls run; default a daemon thread pool owned by the elector. */
        public Builder ioExecutor(java.util.concurrent.Executor ioExecutor) {
            this.ioExecutor = Objects.requireNonNull(ioExecutor, "ioExecutor");
            return this;
        }

        /** Where events are delivered; default a daemon thread owned by the elector. */
        public Builder eventExecutor(java.util.concurrent.Executor eventExecutor) {
            this.eventExecutor = Objects.requireNonNull(eventExecutor, "eventExecutor");
            return this;
        }

        /** The settings as they will be used, validated. */
        public ElectorSettings settings() {
            if (ttl == null) {
                throw new InvalidSettingException("ttl", "ttl must be set");
            }
            Duration renew = renewInterval != null ? renewInterval : ttl.dividedBy(3);
            Duration poll = pollInterval != null ? pollInterval : ttl.dividedBy(15);
            if (owner == null && generatedOwner == null) {
                generatedOwner = OwnerIds.generate();
            }
            return new ElectorSettings(key, owner != null ? owner : generatedOwner, ttl, renew, poll,
                    requestTimeout != null ? requestTimeout : renew,
                    safetyMargin != null ? safetyMargin : ttl.dividedBy(10),
                    releaseTimeout == null ? ElectorSettings.DEFAULT_RELEASE_TIMEOUT : releaseTimeout,
                    releaseByDelete);
        }

        /** Builds the elector (not started). */
        public Elector build() {
            return new Elector(this, settings());
        }
    }
}
