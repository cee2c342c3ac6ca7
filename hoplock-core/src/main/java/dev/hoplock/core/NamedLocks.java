package dev.hoplock.core;

import dev.hoplock.core.backend.AsyncBackend;
import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.LeaseKeys;
import dev.hoplock.core.lock.AcquireResult;
import dev.hoplock.core.lock.LockEvent;
import dev.hoplock.core.lock.LockHandle;
import dev.hoplock.core.lock.LockInterruptedException;
import dev.hoplock.core.lock.LockNotAcquiredException;
import dev.hoplock.core.lock.LockScope;
import dev.hoplock.core.lock.LockTask;
import dev.hoplock.core.lock.Locks;
import dev.hoplock.core.time.ExecutorScheduler;
import dev.hoplock.core.time.HumanDurations;
import dev.hoplock.core.time.Scheduler;
import dev.hoplock.core.time.TimeSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Named locks over any {@link Backend}: the engine behind {@link Locks}. See {@link Locks}, {@link LockHandle} and the
 * package {@link dev.hoplock.core.lock} for what it guarantees; the safety rules are the {@link Elector}'s (its class
 * comment), applied per name by {@code LockSlot} with the same types.
 *
 * <pre>{@code
 * try (NamedLocks locks = NamedLocks.builder(backend).build()) {
 *     locks.withLock("reports/nightly", Duration.ofMinutes(5), lock -> {
 *         report.run(lock.token());          // pass the fencing token downstream
 *         return null;
 *     });
 * }
 * }</pre>
 *
 * <p>Each lock name is stored under the key {@code keyPrefix + name} (default prefix {@code locks/}) as a lease record
 * in the format shared with Go hoplock. One scheduler thread serves every name (timeouts, deadlines, keep-alives); a
 * blocking backend runs on a small pool of I/O threads; events go out on one event thread. Per name, this instance
 * keeps a small state object (what it observed of the record) for as long as it lives.
 *
 * <p>Limits, stated plainly: a lock held by another owner is taken over only after this instance observed the same
 * version unchanged for the longer of the TTL it asks for and the validity the record showed when first seen by its
 * wall clock. When callers of one name use different TTLs <em>and</em> a taker's wall clock runs ahead of the holder's,
 * the second bound relies on that clock; use one TTL per name (or the longest one everywhere) to depend on no wall
 * clock. A process that never saw the record (a fresh start) waits a full TTL before taking over an expired lock.
 */
public final class NamedLocks implements Locks {

    private static final Logger log = LoggerFactory.getLogger(NamedLocks.class);
    private static final AtomicInteger INSTANCES = new AtomicInteger();
    private static final Duration MIN_RETRY_GAP = Duration.ofMillis(10);
    /** The longest TTL a lock may have, as for the elector. */
    public static final Duration MAX_TTL = ElectorSettings.MAX_DURATION;
    /** The owner id used by default: one per process. */
    private static final String PROCESS_OWNER = OwnerIds.generate();

    private final AsyncBackend backend;
    private final TimeSource time;
    private final LoopTimers timers;
    private final String owner;
    private final String keyPrefix;
    private final Duration requestTimeout;
    private final Duration pollInterval;
    private final double safetyFraction;
    private final TakeoverRule takeoverRule;
    private final Executor eventExecutor;
    private final List<AutoCloseable> ownResources = new ArrayList<>();
    private final ConcurrentHashMap<String, LockSlot> slots = new ConcurrentHashMap<>();
    private final List<Consumer<? super LockEvent>> listeners = new CopyOnWriteArrayList<>();
    private volatile boolean closed;
    /** Rule 0: the store's verification, asked once; asked again after a failure to ask, never after a refusal. */
    private @Nullable CompletableFuture<Void> verification;

    private NamedLocks(Builder builder) {
        int instance = INSTANCES.incrementAndGet();
        this.time = builder.time;
        this.owner = builder.owner;
        this.keyPrefix = builder.keyPrefix;
        this.requestTimeout = builder.requestTimeout;
        this.pollInterval = builder.pollInterval;
        this.safetyFraction = builder.safetyFraction;
        this.takeoverRule = builder.takeoverRule;
        Scheduler scheduler = builder.scheduler;
        if (scheduler == null) {
            ExecutorScheduler own = new ExecutorScheduler("hoplock-locks-" + instance);
            ownResources.add(own);
            scheduler = own;
        }
        this.timers = new LoopTimers(scheduler, builder.fallbackScheduler, "hoplock-locks-fallback-" + instance,
                e -> log.error("hoplock: the lock scheduler failed; using a fallback timer", e));
        if (builder.asyncBackend != null) {
            this.backend = builder.asyncBackend;
        } else {
            Executor io = builder.ioExecutor;
            if (io == null) {
                ExecutorService pool = Executors.newCachedThreadPool(daemon("hoplock-locks-io-" + instance));
                ownResources.add(pool::shutdownNow);
                io = pool;
            }
            this.backend = AsyncBackend.on(Objects.requireNonNull(builder.backend, "backend"), io);
        }
        Executor events = builder.eventExecutor;
        if (events == null) {
            ExecutorService single = Executors.newSingleThreadExecutor(daemon("hoplock-locks-events-" + instance));
            ownResources.add(single::shutdown);
            events = single;
        }
        this.eventExecutor = events;
    }

    /** A builder over a blocking backend (the usual case). */
    public static Builder builder(Backend backend) {
        return new Builder(Objects.requireNonNull(backend, "backend"), null);
    }

    /** A builder over a non-blocking backend (simulations deliver answers in virtual time through one). */
    public static Builder builder(AsyncBackend backend) {
        return new Builder(null, Objects.requireNonNull(backend, "backend"));
    }

    /** The owner id used when none is set: one per process ({@code host:pid:random}). */
    public static String processOwner() {
        return PROCESS_OWNER;
    }

    @Override
    public String owner() {
        return owner;
    }

    @Override
    public AcquireResult tryAcquire(String name, Duration ttl) {
        return await(tryAcquireAsync(name, ttl), "taking the lock '" + name + "'", true);
    }

    @Override
    public CompletableFuture<AcquireResult> tryAcquireAsync(String name, Duration ttl) {
        LockSlot slot = slot(name);
        checkTtl(ttl);
        return slot.tryAcquire(ttl);
    }

    @Override
    public AcquireResult acquire(String name, Duration ttl, Duration maxWait) {
        return await(acquireAsync(name, ttl, maxWait), "waiting for the lock '" + name + "'", true);
    }

    @Override
    public CompletableFuture<AcquireResult> acquireAsync(String name, Duration ttl, Duration maxWait) {
        LockSlot slot = slot(name);
        checkTtl(ttl);
        Objects.requireNonNull(maxWait, "maxWait");
        if (maxWait.isNegative()) {
            throw new IllegalArgumentException("maxWait for the lock '" + name + "' must not be negative: "
                    + HumanDurations.format(maxWait) + "; use zero to try once");
        }
        CompletableFuture<AcquireResult> out = new CompletableFuture<>();
        long giveUpAt = time.nanoTime() + maxWait.toNanos();
        attempt(slot, ttl, giveUpAt, out);
        return out;
    }

    private void attempt(LockSlot slot, Duration ttl, long giveUpAt, CompletableFuture<AcquireResult> out) {
        if (out.isDone()) {
            return;
        }
        slot.tryAcquire(ttl).whenComplete((answer, error) -> {
            if (error != null) {
                out.completeExceptionally(error);
                return;
            }
            long left = giveUpAt - time.nanoTime();
            if (answer.acquired() || left <= 0 || closed) {
                if (!out.complete(answer) && answer instanceof AcquireResult.Acquired acquired
                        && !acquired.extended()) {
                    acquired.handle().releaseAsync();
                }
                return;
            }
            Duration wait = answer instanceof AcquireResult.HeldByAnother held ? held.retryAfter() : pollInterval;
            wait = min(min(wait, pollInterval), Duration.ofNanos(left));
            if (wait.compareTo(MIN_RETRY_GAP) < 0) {
                wait = MIN_RETRY_GAP;
            }
            timers.schedule(() -> attempt(slot, ttl, giveUpAt, out), wait);
        });
    }

    @Override
    public <T, E extends Exception> T withLock(String name, Duration ttl, LockTask<T, E> task) throws E {
        return withLock(name, ttl, Duration.ZERO, task);
    }

    @Override
    public <T, E extends Exception> T withLock(String name, Duration ttl, Duration maxWait, LockTask<T, E> task)
            throws E {
        Objects.requireNonNull(task, "task");
        LockSlot slot = slot(name);
        LockHandle running = slot.validHold();
        if (running != null) {
            throw new LockNotAcquiredException("the lock '" + name + "' is already held by this instance (token "
                    + running.token() + "): an execution in this process is running",
                    new AcquireResult.Acquired(running, true));
        }
        AcquireResult answer = maxWait.isZero() ? tryAcquire(name, ttl) : acquire(name, ttl, maxWait);
        if (!(answer instanceof AcquireResult.Acquired acquired)) {
            throw new LockNotAcquiredException(describeRefusal(answer), answer);
        }
        LockHandle lock = acquired.handle();
        if (acquired.extended()) {
            throw new LockNotAcquiredException("the lock '" + name + "' is already held by this instance (token "
                    + lock.token() + "): an execution in this process is running", answer);
        }
        try {
            Duration margin = ttl.dividedBy(3);
            if (margin.compareTo(safetyMargin(ttl)) > 0) {
                lock.keepAlive(margin);
            }
            try (LockScope scope = lock.enterScope(true)) {
                return task.run(lock);
            }
        } finally {
            lock.release();
        }
    }

    private static String describeRefusal(AcquireResult answer) {
        if (answer instanceof AcquireResult.HeldByAnother held) {
            return "the lock '" + held.name() + "' is held by " + (held.holder().isEmpty() ? "an unknown owner"
                    : "'" + held.holder() + "'") + " (token " + held.token() + ")"
                    + (held.expiresAt() == null ? "" : ", expiring at " + held.expiresAt() + " by its clock");
        }
        if (answer instanceof AcquireResult.Unavailable unavailable) {
            return "the lock '" + unavailable.name() + "' could not be taken: " + unavailable.cause().getMessage();
        }
        return "the lock '" + answer.name() + "' was not taken";
    }

    @Override
    public List<LockHandle> held() {
        List<LockHandle> result = new ArrayList<>();
        for (LockSlot slot : slots.values()) {
            LockHandle hold = slot.validHold();
            if (hold != null) {
                result.add(hold);
            }
        }
        return result;
    }

    @Override
    public AutoCloseable addListener(Consumer<? super LockEvent> listener) {
        Objects.requireNonNull(listener, "listener");
        listeners.add(listener);
        return () -> listeners.remove(listener);
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        List<CompletableFuture<?>> releases = new ArrayList<>();
        for (LockSlot slot : slots.values()) {
            LockHold hold = slot.validHold();
            if (hold != null) {
                releases.add(slot.release(hold));
            }
        }
        try {
            CompletableFuture.allOf(releases.toArray(CompletableFuture[]::new))
                    .get(requestTimeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            log.warn("hoplock: not every lock was released at close ({}); they expire by themselves", e.toString());
        }
        timers.close();
        for (AutoCloseable resource : ownResources) {
            try {
                resource.close();
            } catch (Exception e) {
                log.debug("hoplock: closing a lock resource failed", e);
            }
        }
    }

    // ------------------------------------------------------------------ for LockSlot and LockHold

    AsyncBackend backend() {
        return backend;
    }

    TimeSource time() {
        return time;
    }

    LoopTimers timers() {
        return timers;
    }

    Duration requestTimeout() {
        return requestTimeout;
    }

    Duration pollInterval() {
        return pollInterval;
    }

    /** How long before the end of the TTL an acquisition stops counting as held (absorbs clock-rate drift). */
    Duration safetyMargin(Duration ttl) {
        return Duration.ofNanos((long) (ttl.toNanos() * safetyFraction));
    }

    /**
     * Rule 4 as {@link TakeoverDecision#decide(Observation, long, long, java.time.Instant, Duration, Duration)} states
     * it; a seam only so that the simulation can plant a broken rule and show that its checker catches it.
     */
    @FunctionalInterface
    interface TakeoverRule {
        TakeoverDecision.Outcome decide(Observation seen, long highestGeneration, long nowNanos,
                                        java.time.Instant wallNow, Duration observeFor, Duration pollInterval);
    }

    /**
     * Rule 0 of the {@link Elector}'s safety argument: completes once the store was shown to honour conditional create
     * and swap ({@link dev.hoplock.core.backend.StoreCapabilities#requireFor(boolean)}, no delete needed: a release
     * writes an expired record), or fails with the {@link dev.hoplock.core.backend.BackendException} that says why not.
     * A failure to ask (unreachable, timed out) is retried at the next call; a refusal is final.
     */
    synchronized CompletableFuture<Void> verified() {
        CompletableFuture<Void> current = verification;
        if (current != null && !(current.isCompletedExceptionally() && !refused(current))) {
            return current;
        }
        CompletableFuture<Void> asked;
        try {
            asked = backend.verify().toCompletableFuture()
                    .orTimeout(requestTimeout.toNanos(), TimeUnit.NANOSECONDS)
                    .thenApply(capabilities -> {
                        try {
                            capabilities.requireFor(false);
                        } catch (dev.hoplock.core.backend.StoreNotCapableException e) {
                            log.error("hoplock: named locks refuse {}: {}", backend.describe(), e.getMessage());
                            throw new java.util.concurrent.CompletionException(e);
                        }
                        return null;
                    });
        } catch (RuntimeException e) {
            asked = CompletableFuture.failedFuture(e);
        }
        verification = asked;
        return asked;
    }

    private static boolean refused(CompletableFuture<Void> done) {
        try {
            done.getNow(null);
            return false;
        } catch (java.util.concurrent.CompletionException e) {
            return e.getCause() instanceof dev.hoplock.core.backend.StoreNotCapableException;
        } catch (java.util.concurrent.CancellationException e) {
            return false;
        }
    }

    TakeoverRule takeoverRule() {
        return takeoverRule;
    }

    String describeStore() {
        return backend.describe();
    }

    void guard(String activity, Runnable body) {
        try {
            body.run();
        } catch (RuntimeException e) {
            log.error("hoplock: unexpected failure while {} for named locks", activity, e);
        }
    }

    void warnCorrupt(String name, String why) {
        log.warn("hoplock: the record of the lock '{}' in {} is corrupt ({}); it counts as held and is taken over only"
                + " after staying unchanged for a TTL", name, backend.describe(), why);
    }

    void warnRegressed(String name, long highest, long seen) {
        log.warn("hoplock: the fencing token of the lock '{}' went down from {} to {}: the record was deleted or"
                + " rewritten outside hoplock; new acquisitions continue above {}", name, highest, seen, highest);
    }

    void publish(LockEvent event) {
        if (listeners.isEmpty()) {
            return;
        }
        deliver(() -> {
            for (Consumer<? super LockEvent> listener : listeners) {
                try {
                    listener.accept(event);
                } catch (RuntimeException e) {
                    log.warn("hoplock: a lock listener failed on {}", event, e);
                }
            }
        });
    }

    void publishLoss(LockEvent.Lost event, List<Consumer<? super LockEvent.Lost>> handleListeners) {
        if (event.cause() == dev.hoplock.core.lock.LockLossCause.EXPIRED) {
            log.debug("hoplock: the lock '{}' (token {}) expired: {}", event.name(), event.token(), event.detail());
        } else {
            log.warn("hoplock: lost the lock '{}' (token {}): {} ({})", event.name(), event.token(), event.cause(),
                    event.detail());
        }
        publish(event);
        if (!handleListeners.isEmpty()) {
            deliver(() -> {
                for (Consumer<? super LockEvent.Lost> listener : handleListeners) {
                    try {
                        listener.accept(event);
                    } catch (RuntimeException e) {
                        log.warn("hoplock: a lock-loss listener failed on {}", event, e);
                    }
                }
            });
        }
    }

    private void deliver(Runnable delivery) {
        try {
            eventExecutor.execute(delivery);
        } catch (RuntimeException e) {
            log.warn("hoplock: a lock event could not be delivered ({})", e.toString());
        }
    }

    /**
     * Waits for {@code future} on the calling thread. On interruption the thread's flag is set again and, when
     * {@code releaseIfLate}, an acquisition that completes after all is released.
     */
    <T> T await(CompletableFuture<T> future, String what, boolean releaseIfLate) {
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            if (releaseIfLate) {
                future.thenAccept(answer -> {
                    if (answer instanceof AcquireResult.Acquired acquired && !acquired.extended()) {
                        acquired.handle().releaseAsync();
                    }
                });
            }
            throw new LockInterruptedException("interrupted while " + what, e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException("unexpected failure while " + what, cause);
        }
    }

    private LockSlot slot(String name) {
        Objects.requireNonNull(name, "name");
        if (closed) {
            throw new IllegalStateException("these named locks are closed; build a new NamedLocks");
        }
        LockSlot existing = slots.get(name);
        if (existing != null) {
            return existing;
        }
        String key;
        try {
            key = LeaseKeys.validate(keyPrefix + name);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("invalid lock name '" + name + "': use segments of letters, digits,"
                    + " '.', '_' or '-' separated by single '/' (" + e.getMessage() + ")", e);
        }
        return slots.computeIfAbsent(name, n -> new LockSlot(this, n, key));
    }

    private static void checkTtl(Duration ttl) {
        Objects.requireNonNull(ttl, "ttl");
        if (ttl.isNegative() || ttl.isZero() || ttl.compareTo(MAX_TTL) > 0) {
            throw new InvalidSettingException("ttl", "lock ttl must be above 0 and at most 7 days, was "
                    + HumanDurations.format(ttl) + "; choose how long one execution may hold the lock without"
                    + " renewing it, for example 30s");
        }
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        AtomicInteger counter = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, name + "-" + counter.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    /**
     * Configures {@link NamedLocks}. Defaults: owner {@link #processOwner()}, key prefix {@code locks/}, request
     * timeout 5s, poll interval 1s (blocking waits look again at least this often), safety margin 10% of each TTL,
     * real clocks, one scheduler thread, one event thread, a cached pool of I/O threads for a blocking backend.
     */
    public static final class Builder {

        private final @Nullable Backend backend;
        private final @Nullable AsyncBackend asyncBackend;
        private String owner = PROCESS_OWNER;
        private String keyPrefix = "locks/";
        private Duration requestTimeout = Duration.ofSeconds(5);
        private Duration pollInterval = Duration.ofSeconds(1);
        private double safetyFraction = 0.1;
        private TimeSource time = TimeSource.system();
        private @Nullable Scheduler scheduler;
        private @Nullable Scheduler fallbackScheduler;
        private @Nullable Executor ioExecutor;
        private @Nullable Executor eventExecutor;
        private TakeoverRule takeoverRule = TakeoverDecision::decide;

        private Builder(@Nullable Backend backend, @Nullable AsyncBackend asyncBackend) {
            this.backend = backend;
            this.asyncBackend = asyncBackend;
        }

        /** The owner id written into records; must be unique per instance that may hold locks at once. */
        public Builder owner(String owner) {
            Objects.requireNonNull(owner, "owner");
            if (owner.isBlank()) {
                throw new InvalidSettingException("owner", "the lock owner id must not be blank; leave it unset for"
                        + " one id per process (host:pid:random)");
            }
            this.owner = owner;
            return this;
        }

        /** The key prefix under which lock records are stored (default {@code locks/}; empty for none). */
        public Builder keyPrefix(String keyPrefix) {
            Objects.requireNonNull(keyPrefix, "keyPrefix");
            if (!keyPrefix.isEmpty() && !keyPrefix.endsWith("/")) {
                throw new InvalidSettingException("keyPrefix", "the lock key prefix '" + keyPrefix + "' must end with"
                        + " '/' (or be empty), for example 'locks/'");
            }
            if (!keyPrefix.isEmpty()) {
                LeaseKeys.validate(keyPrefix + "x");
            }
            this.keyPrefix = keyPrefix;
            return this;
        }

        /** The longest wait for one store request (default 5s); a renewal is bounded by the time left as well. */
        public Builder requestTimeout(Duration requestTimeout) {
            this.requestTimeout = positive("requestTimeout", requestTimeout);
            return this;
        }

        /** How often a blocking acquire looks again at most apart, and a failed keep-alive retries (default 1s). */
        public Builder pollInterval(Duration pollInterval) {
            this.pollInterval = positive("pollInterval", pollInterval);
            return this;
        }

        /**
         * The share of each TTL by which the local deadline comes before the written expiry (default 0.1): it absorbs
         * the difference in clock rates between machines. Between 0 (inclusive) and 0.5.
         */
        public Builder safetyMarginFraction(double fraction) {
            if (!(fraction >= 0 && fraction <= 0.5)) {
                throw new InvalidSettingException("safetyMarginFraction", "the safety margin fraction must be between 0"
                        + " and 0.5, was " + fraction + "; the default is 0.1");
            }
            this.safetyFraction = fraction;
            return this;
        }

        /** The clocks (tests: {@link dev.hoplock.core.time.VirtualTime}). */
        public Builder time(TimeSource time) {
            this.time = Objects.requireNonNull(time, "time");
            return this;
        }

        /** The scheduler for every timer of every name (tests: {@link dev.hoplock.core.time.VirtualTime}). */
        public Builder scheduler(Scheduler scheduler) {
            this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
            return this;
        }

        /** The timer used when the scheduler throws (default: a thread started on first need). */
        public Builder fallbackScheduler(Scheduler fallbackScheduler) {
            this.fallbackScheduler = Objects.requireNonNull(fallbackScheduler, "fallbackScheduler");
            return this;
        }

        /** Where a blocking backend's calls run (default: a cached pool of daemon threads). */
        public Builder ioExecutor(Executor ioExecutor) {
            this.ioExecutor = Objects.requireNonNull(ioExecutor, "ioExecutor");
            return this;
        }

        /** Where events and loss listeners run (default: one daemon thread); {@code Runnable::run} runs them inline. */
        public Builder eventExecutor(Executor eventExecutor) {
            this.eventExecutor = Objects.requireNonNull(eventExecutor, "eventExecutor");
            return this;
        }

        /** Test seam (package-private): the simulation plants a broken takeover rule through it. */
        Builder takeoverRule(TakeoverRule rule) {
            this.takeoverRule = Objects.requireNonNull(rule, "rule");
            return this;
        }

        public NamedLocks build() {
            return new NamedLocks(this);
        }

        private static Duration positive(String name, Duration value) {
            Objects.requireNonNull(value, name);
            if (value.isNegative() || value.isZero()) {
                throw new InvalidSettingException(name, name + " must be above 0, was " + HumanDurations.format(value));
            }
            return value;
        }
    }
}
