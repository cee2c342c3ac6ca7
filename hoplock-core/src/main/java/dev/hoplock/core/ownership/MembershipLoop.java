package dev.hoplock.core.ownership;

import dev.hoplock.core.Lease;
import dev.hoplock.core.backend.AsyncBackend;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.core.election.ElectionEvent;
import dev.hoplock.core.election.Elector;
import dev.hoplock.core.election.StoreVerification;
import dev.hoplock.core.time.Scheduler;
import dev.hoplock.core.time.TimeSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/**
 * The registry protocol of one member: reads the group's registry, joins, acknowledges epochs, watches one other
 * member's lease and removes it once it provably stopped, and deregisters on leave. One request at a time; state
 * changes under this object's lock; the hot path reads {@link #current()} only.
 *
 * <p>The rules it drives live elsewhere, one place each: what a read shows becomes the view in {@link ViewAdoption}
 * (M2, M3), this member's own entry changes are decided by {@link SelfRegistration} (M1's entry, M5, M7's write), a
 * watched member is judged by {@link LeaseWatch} (M6), and re-creating a missing registry is allowed by
 * {@link RegistryAbsence} (M9). Every write here is a compare-and-swap on the version read (M9), and no request
 * is sent before this member's liveness elector verified the store (E0, the elector's {@code VerificationGate}).
 *
 * <p>Requests per member, with nothing changing: one registry read per renew interval plus one read of the watched
 * member's lease (the next member in id order): 2 reads per renew interval. During a change (not joined, epoch not yet
 * settled or acknowledged, a removal pending) the loop runs every poll interval instead.
 */
final class MembershipLoop {

    private static final Logger log = LoggerFactory.getLogger(MembershipLoop.class);

    private final GroupConfig config;
    private final AsyncBackend backend;
    private final TimeSource time;
    private final Scheduler scheduler;
    private final Elector elector;
    private final ClaimBook claims;
    private final Consumer<OwnershipEvent> events;
    private final String registryKey;
    private final long ttlNanos;
    private final SplittableRandom jitter;
    private final SplittableRandom incarnations;
    private final ViewAdoption views;
    private final ActingWatch acting;

    // ---- guarded by this ----
    private @Nullable Registry latest;
    private @Nullable Handle registryHandle;
    private final RegistryAbsence absence;
    private final NeighbourWatch neighbour = new NeighbourWatch();
    private long op;
    private Scheduler.@Nullable Cancellable timer;
    private Scheduler.@Nullable Cancellable opTimer;
    private boolean busy;
    private boolean stopped;
    private @Nullable CompletableFuture<Boolean> leaving;
    private long leaveDeadlineNanos;
    private @Nullable String lastProblem;

    MembershipLoop(GroupConfig config, AsyncBackend backend, TimeSource time, Scheduler scheduler,
                   Elector elector, ClaimBook claims, Consumer<OwnershipEvent> events) {
        this.config = config;
        this.backend = backend;
        this.time = time;
        this.scheduler = scheduler;
        this.elector = elector;
        this.claims = claims;
        this.events = events;
        this.registryKey = MemberKeys.registryKey(config.group());
        this.ttlNanos = config.ttl().toNanos();
        this.absence = new RegistryAbsence(ttlNanos);
        // (The watch is asked only once the loop runs, after this constructor.)
        this.views = new ViewAdoption(config, time, claims, events, this::problem, this::actingAfterAdoption);
        this.acting = new ActingWatch(config.group(), time, scheduler, elector, events, views::current,
                this::checkActing, claims::loseAll);
        this.jitter = new SplittableRandom(config.owner().hashCode() * 31L + config.memberId().hashCode());
        this.incarnations = new SplittableRandom(jitter.nextLong() ^ time.nanoTime() * 0x9E3779B97F4A7C15L
                ^ time.wallMillis());
    }

    /** The adopted view, read without lock by the hot path ({@link ActingGate}). */
    @Nullable EpochView current() {
        return views.current();
    }

    synchronized Optional<Registry> latest() {
        return Optional.ofNullable(latest);
    }

    synchronized @Nullable String lastProblem() {
        return lastProblem;
    }

    synchronized void start() {
        schedule(Duration.ZERO);
    }

    /** Runs a step soon ({@link #kick()}) whenever the liveness lease is acquired or lost, and checks acting. */
    void followLease() {
        elector.addListener(event -> {
            if (event instanceof ElectionEvent.Acquired || event instanceof ElectionEvent.Lost) {
                checkActing();
                kick();
            }
        });
    }

    /**
     * Lets {@link ActingWatch} follow the gate's answer ({@code actingNow}: {@link ActingGate#isMember()}), so that a
     * member that stops acting without a new view is told at that instant.
     */
    synchronized void watchActing(java.util.function.BooleanSupplier actingNow,
            java.util.function.BooleanSupplier leavingNow) {
        acting.watch(actingNow, leavingNow);
    }

    /** {@link ActingWatch#adopting}: called by {@link ViewAdoption} under this loop's lock, during an adoption. */
    private boolean actingAfterAdoption(@Nullable EpochView before) {
        return acting.adopting(before);
    }

    /** Compares whether the member acts now with the last check ({@link ActingWatch}), under this loop's lock. */
    synchronized void checkActing() {
        if (!stopped) {
            acting.check();
        }
    }

    /** Runs a step soon (the member lease was acquired, a claim closed): no wait for the next interval. */
    synchronized void kick() {
        if (stopped || busy) {
            return;
        }
        schedule(Duration.ZERO);
    }

    /**
     * Rule M7, the store part: removes this member's entry (if it is still this registration), retrying until
     * {@code within} has passed. Completes with true once the entry is gone from a written or read registry.
     */
    synchronized CompletableFuture<Boolean> deregister(Duration within) {
        if (leaving == null) {
            CompletableFuture<Boolean> left = new CompletableFuture<>();
            leaving = left;
            leaveDeadlineNanos = time.nanoTime() + within.toNanos();
            scheduler.schedule(() -> {
                synchronized (this) {
                    left.complete(false);
                }
            }, within);
            if (!busy) {
                schedule(Duration.ZERO);
            }
        }
        return leaving;
    }

    synchronized void stop() {
        stopped = true;
        cancel(timer);
        cancel(opTimer);
        op++;
        acting.close();
        views.clear();
    }

    // ------------------------------------------------------------------ the loop

    private synchronized void step() {
        timer = null;
        if (stopped || busy) {
            return;
        }
        if (leaving != null && leaving.isDone()) {
            return;
        }
        StoreVerification verification = elector.storeVerification();
        if (verification != StoreVerification.VERIFIED) {
            if (verification == StoreVerification.REFUSED) {
                problem(OwnershipProblems.storeRefused(MemberKeys.memberKey(config.group(), config.memberId())));
            }
            // E0 for the group: no registry request (and so no registry write: ending a young incarnation's grace,
            // removing a member) before this member's liveness elector verified the store, which is final once
            // reached. A store refused for good is never written to; one not yet answered is looked at again after a
            // poll (the elector's Acquired event kicks the loop as soon as it campaigned). A member leaving before
            // that wrote no entry in this life, so it has nothing to remove.
            if (leaving != null) {
                leaving.complete(true);
                return;
            }
            next(false);
            return;
        }
        long t0 = time.nanoTime();
        long w0 = time.wallMillis();
        log.debug("hoplock: {} ({}) reads the registry", config.memberId(), config.owner());
        call(backend.read(registryKey, timeout()), answer -> onRegistry(answer, t0, w0), () -> next(false));
    }

    private void onRegistry(Optional<StoredObject> answer, long t0, long w0) {
        long answered = time.nanoTime();
        if (answer.isEmpty()) {
            registryHandle = Handle.NONE;
            if (leaving != null) {
                leaving.complete(true);
                return;
            }
            absence.absent(answered);
            Optional<Lease> lease = elector.currentLease();
            if (absence.mayCreate(answered) && lease.isPresent()) {
                EpochView current = views.current();
                long epoch = (current == null ? 0 : current.epoch) + 1;
                // Rule M9: a new incarnation, young until some member has waited a whole TTL in it (M3).
                Registry first = Registry.first(epoch, SelfRegistration.entry(config, lease.get().generation(), 0),
                        newIncarnation());
                write(first, "create");
                return;
            }
            if (absence.sawRegistry()) {
                problem(OwnershipProblems.registryDisappeared(registryKey));
            }
            next(false);
            return;
        }
        absence.present();
        Registry registry;
        try {
            registry = Registry.decode(answer.get().content(), !config.has(GroupConfig.Defect.NO_REGISTRY_END_LINE));
        } catch (RegistrySeal.TornRegistryException e) {
            // Not a version the store held (a torn read): never a view, never a base for a write; read again soon.
            problem(OwnershipProblems.registryTorn(registryKey, e));
            next(true);
            return;
        } catch (IllegalArgumentException e) {
            problem(OwnershipProblems.registryUnreadable(registryKey, e));
            next(false);
            return;
        }
        absence.decoded();
        adopt(registry, answer.get().handle(), t0, w0, answered);
        decide(t0, w0);
    }

    /** Adopts a registry version that a request sent at {@code t0} / {@code w0} showed (rules M2, M3: ViewAdoption). */
    private void adopt(Registry registry, Handle handle, long t0, long w0, long answered) {
        latest = registry;
        registryHandle = handle;
        views.adopt(registry, t0, w0, answered);
        acting.check();
    }

    /** A fresh incarnation id for a registry this member creates (rule M9): 64 random bits, in hex. */
    private String newIncarnation() {
        return String.format("%016x", incarnations.nextLong());
    }

    /** This member's own entry first (SelfRegistration: M1's entry, M5, M7), then a removal (M6), then the watch. */
    private void decide(long t0, long w0) {
        Registry registry = Objects.requireNonNull(latest, "decide follows the adoption of a registry");
        CompletableFuture<Boolean> left = leaving;
        SelfRegistration.Change change = SelfRegistration.next(config, registry, left != null,
                left != null ? Optional.empty() : elector.currentLease(), views.current(), claims);
        if (change != null) {
            if (change.left()) {
                Objects.requireNonNull(left, "only a leave is left").complete(true);
            } else {
                write(Objects.requireNonNull(change.next(), "a change that is not left writes"), change.what());
            }
            return;
        }
        // Rule M3: once this member's own grace has passed at an epoch of a young incarnation (that answer came after
        // the creation), every view confirmed before the deletion has lapsed: it records that the incarnation is no
        // longer young, so acknowledgements settle its epochs from now on.
        EpochView current = views.current();
        if (registry.young() && current != null && current.registry.sameViewAs(registry)
                && current.graceHasPassed(time.nanoTime())) {
            write(registry.grownUp(), "end the hand-over grace of a created registry");
            return;
        }
        Registry.Entry removal = neighbour.removal(registry);
        if (removal != null) {
            write(registry.without(removal.id()), "remove " + removal.id());
            return;
        }
        watchStep();
    }

    private void write(Registry next, String what) {
        long t0 = time.nanoTime();
        long w0 = time.wallMillis();
        Handle expected = registryHandle == null ? Handle.NONE : registryHandle;
        call(backend.write(registryKey, expected,
                next.encode(!config.has(GroupConfig.Defect.NO_REGISTRY_END_LINE)), timeout()), result -> {
            if (result instanceof WriteResult.Written written) {
                log.debug("hoplock: {} of group '{}' wrote the registry: {} (epoch {})", config.memberId(),
                        config.group(), what, next.epoch());
                adopt(next, written.handle(), t0, w0, time.nanoTime());
                if (leaving != null && next.entry(config.memberId()) == null) {
                    leaving.complete(true);
                    return;
                }
                if (what.startsWith("remove")) {
                    neighbour.removed();
                }
                decide(t0, w0);
            } else {
                log.debug("hoplock: {} ({}): {} refused", config.memberId(), config.owner(), what);
                next(true);
            }
        }, () -> {
            log.debug("hoplock: {} ({}): {} failed or timed out", config.memberId(), config.owner(), what);
            next(true);
        });
    }

    /** Reads the lease of the next member (by id, around the ring) and judges it (rule M6). */
    private void watchStep() {
        Registry.Entry entry = NeighbourWatch.neighbour(views.current(), latest);
        if (entry == null) {
            next(false);
            return;
        }
        String id = entry.id();
        LeaseWatch watching = neighbour.watch(entry, ttlNanos, config.has(GroupConfig.Defect.HASTY_REMOVAL));
        long sent = time.nanoTime();
        java.time.Instant sentWall = time.wallNow();
        call(backend.read(MemberKeys.memberKey(config.group(), id), timeout()), answer -> {
            if (watching.observe(answer, sent, sentWall, time.nanoTime())) {
                neighbour.provedStopped(entry);
            }
            next(false);
        }, () -> {
            watching.readFailed();
            next(false);
        });
    }

    private void next(boolean contended) {
        if (stopped) {
            return;
        }
        EpochView view = views.current();
        Registry registry = latest;
        Registry.Entry me = registry == null ? null : registry.entry(config.memberId());
        boolean changing = leaving != null || view == null || !view.settled(time.nanoTime())
                || neighbour.removalPending() || registry == null || me == null || me.ack() < registry.epoch()
                || elector.currentLease().isEmpty();
        Duration delay = changing ? config.pollInterval() : config.renewInterval();
        if (contended) {
            delay = Duration.ofNanos(jitter.nextLong(Math.max(1, config.pollInterval().toNanos())));
        }
        log.debug("hoplock: {} ({}) next step in {}", config.memberId(), config.owner(), delay);
        schedule(delay);
    }

    private Duration timeout() {
        if (leaving != null) {
            long left = leaveDeadlineNanos - time.nanoTime();
            return Duration.ofNanos(Math.max(1, Math.min(left, config.requestTimeout().toNanos())));
        }
        return config.requestTimeout();
    }

    /** One request at a time, bounded by the request timeout: a late answer is ignored (its outcome unknown). */
    private <T> void call(CompletionStage<T> stage, Consumer<T> onAnswer, Runnable onFailure) {
        long id = ++op;
        busy = true;
        opTimer = scheduler.schedule(() -> {
            synchronized (this) {
                if (op == id && !stopped) {
                    log.debug("hoplock: {} ({}) request timed out", config.memberId(), config.owner());
                    op++;
                    busy = false;
                    onFailure.run();
                }
            }
        }, timeout());
        stage.whenComplete((value, error) -> {
            synchronized (this) {
                if (op != id || stopped) {
                    return;
                }
                op++;
                busy = false;
                cancel(opTimer);
                try {
                    if (error != null) {
                        onFailure.run();
                    } else {
                        onAnswer.accept(value);
                    }
                } catch (RuntimeException | Error e) {
                    problem(OwnershipProblems.loopFailed(e));
                    log.warn("hoplock: membership loop of group '{}' failed", config.group(), e);
                    next(false);
                }
            }
        });
    }

    private void schedule(Duration delay) {
        cancel(timer);
        timer = scheduler.schedule(this::step, delay);
    }

    private static void cancel(Scheduler.@Nullable Cancellable cancellable) {
        if (cancellable != null) {
            cancellable.cancel();
        }
    }

    private void problem(String message) {
        if (!message.equals(lastProblem)) {
            lastProblem = message;
            log.warn("hoplock: {}", message);
            emit(new OwnershipEvent.Problem(config.group(), message));
        }
    }

    private void emit(OwnershipEvent event) {
        events.accept(event);
    }
}
