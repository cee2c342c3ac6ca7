package dev.hoplock.core.lock;

import dev.hoplock.core.OwnerIds;
import dev.hoplock.core.backend.AsyncBackend;
import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.election.Elector;
import dev.hoplock.core.election.ElectorSettings;
import dev.hoplock.core.internal.lease.LeaseTimes;
import dev.hoplock.core.internal.lease.TakeoverDecision;
import dev.hoplock.core.internal.runtime.EngineRuntime;
import dev.hoplock.core.internal.runtime.LoopTimers;
import dev.hoplock.core.lock.AcquireResult;
import dev.hoplock.core.lock.LockEvent;
import dev.hoplock.core.lock.LockHandle;
import dev.hoplock.core.lock.LockTask;
import dev.hoplock.core.lock.Locks;
import dev.hoplock.core.time.Scheduler;
import dev.hoplock.core.time.TimeSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
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
    /** The longest TTL a lock may have, as for the elector. */
    public static final Duration MAX_TTL = ElectorSettings.MAX_DURATION;
    /**
     * The longest time a write of a named lock is given to land when the request timeout is longer: a TTL must leave
     * at least this much (or the request timeout, when shorter) after its safety margin ({@link #minimumTtl()}).
     */
    public static final Duration MIN_WRITE_TIME = Duration.ofMillis(50);
    /** The owner id used by default: one per process. */
    private static final String PROCESS_OWNER = OwnerIds.generate();
    private static final AtomicInteger INSTANCES = new AtomicInteger();

    private final TimeSource time;
    private final String owner;
    private final Duration requestTimeout;
    private final Duration pollInterval;
    private final double safetyFraction;
    private final LockTakeoverRule takeoverRule;
    private final LockExtensionRule extensionRule;
    private final LockAdoptionRule adoptionRule;
    private final LockTurnRule turnRule;
    private final Duration fairTurn;
    private final EngineRuntime runtime;
    private final LoopTimers timers;
    private final LockEvents events;
    private final LockStoreGate storeGate;
    private final LockWaits waits;
    private final LockSlotTable slots;
    private volatile boolean closed;

    private NamedLocks(Builder builder) {
        int instance = INSTANCES.incrementAndGet();
        this.runtime = builder.runtime.start(new EngineRuntime.ThreadNames("hoplock-locks-" + instance,
                "hoplock-locks-io-" + instance, "hoplock-locks-events-" + instance,
                "hoplock-locks-fallback-" + instance));
        this.time = runtime.time();
        this.owner = builder.owner;
        this.requestTimeout = builder.requestTimeout;
        this.pollInterval = builder.pollInterval;
        this.safetyFraction = builder.safetyFraction;
        this.takeoverRule = builder.takeoverRule;
        this.extensionRule = builder.extensionRule;
        this.adoptionRule = builder.adoptionRule;
        this.turnRule = builder.turnRule;
        this.fairTurn = builder.fairTurn;
        this.timers = runtime.timers(e -> log.error("hoplock: the lock scheduler failed; using a fallback timer", e));
        this.events = new LockEvents(runtime.eventExecutor());
        this.storeGate = new LockStoreGate(runtime.backend(), requestTimeout);
        this.waits = new LockWaits(time, timers, pollInterval, () -> closed);
        this.slots = new LockSlotTable(this, builder.keyPrefix);
    }

    /** A builder over a blocking backend (the usual case). */
    public static Builder builder(Backend backend) {
        return new Builder(EngineRuntime.over(backend));
    }

    /** A builder over a non-blocking backend (simulations deliver answers in virtual time through one). */
    public static Builder builder(AsyncBackend backend) {
        return new Builder(EngineRuntime.over(backend));
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
        return LockWaits.await(tryAcquireAsync(name, ttl), "taking the lock '" + name + "'", true);
    }

    @Override
    public CompletableFuture<AcquireResult> tryAcquireAsync(String name, Duration ttl) {
        LockSlot slot = slot(name);
        checkTtl(ttl);
        return slot.tryAcquire(ttl);
    }

    @Override
    public AcquireResult tryAcquire(String name, Duration ttl, Duration fairTurn) {
        return LockWaits.await(tryAcquireAsync(name, ttl, fairTurn), "taking the lock '" + name + "'", true);
    }

    @Override
    public CompletableFuture<AcquireResult> tryAcquireAsync(String name, Duration ttl, Duration fairTurn) {
        LockSlot slot = slot(name);
        checkTtl(ttl);
        return slot.tryAcquire(ttl, LockSettingChecks.turn(fairTurn));
    }

    @Override
    public AcquireResult acquire(String name, Duration ttl, Duration maxWait) {
        return LockWaits.await(acquireAsync(name, ttl, maxWait), "waiting for the lock '" + name + "'", true);
    }

    @Override
    public CompletableFuture<AcquireResult> acquireAsync(String name, Duration ttl, Duration maxWait) {
        LockSlot slot = slot(name);
        checkTtl(ttl);
        Objects.requireNonNull(maxWait, "maxWait");
        if (maxWait.isNegative()) {
            throw new IllegalArgumentException(LockProblems.negativeMaxWait(name, maxWait));
        }
        return waits.acquire(slot, ttl, maxWait);
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
        return LockedExecution.run(this, slot, name, ttl, maxWait, task);
    }

    @Override
    public List<LockHandle> held() {
        return slots.held();
    }

    @Override
    public java.util.SortedMap<String, String> keysByName() {
        return slots.keysByName();
    }

    @Override
    public AutoCloseable addListener(Consumer<? super LockEvent> listener) {
        return events.addListener(listener);
    }

    /**
     * Releases every lock held (waiting at most the request timeout for the store's answers: a lock not released by
     * then expires by itself), then stops the threads this instance created.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        slots.releaseAll(requestTimeout);
        timers.close();
        runtime.close();
    }

    // ------------------------------------------------------------------ for LockSlot and its parts

    AsyncBackend backend() {
        return runtime.backend();
    }

    @Override
    public TimeSource time() {
        return time;
    }

    LoopTimers timers() {
        return timers;
    }

    LockEvents events() {
        return events;
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

    /** E0, through the elector's gate: see {@link LockStoreGate#verified()}. */
    CompletableFuture<Void> verified() {
        return storeGate.verified();
    }

    LockTakeoverRule takeoverRule() {
        return takeoverRule;
    }

    LockExtensionRule extensionRule() {
        return extensionRule;
    }

    LockAdoptionRule adoptionRule() {
        return adoptionRule;
    }

    LockTurnRule turnRule() {
        return turnRule;
    }

    /** The turn window of every call that does not name one (zero: the default mode). */
    Duration fairTurn() {
        return fairTurn;
    }

    String describeStore() {
        return runtime.backend().describe();
    }

    void guard(String activity, Runnable body) {
        try {
            body.run();
        } catch (RuntimeException e) {
            log.error("hoplock: unexpected failure while {} for named locks", activity, e);
        }
    }

    private LockSlot slot(String name) {
        Objects.requireNonNull(name, "name");
        if (closed) {
            throw new IllegalStateException(LockProblems.closed());
        }
        return slots.slot(name);
    }

    /**
     * The shortest TTL this instance accepts: one whose usable validity (the TTL minus its safety margin) outlasts a
     * write given the request timeout, or {@link #MIN_WRITE_TIME} when the request timeout is longer. An acquisition's
     * write is bounded by that validity (rule 3), and an answer after it gives nothing (rule 1), so a shorter TTL
     * could never be acquired (1 ms never was on OpenSearch). Rounded up to a whole millisecond. Implements L6 (text in
     * {@link dev.hoplock.core.lock}).
     */
    public Duration minimumTtl() {
        long write = LeaseTimes.min(requestTimeout, MIN_WRITE_TIME).toNanos();
        long nanos = (long) Math.ceil(write / (1 - safetyFraction));
        Duration minimum = Duration.ofMillis((nanos + 999_999) / 1_000_000);
        while (minimum.minus(safetyMargin(minimum)).toNanos() < write) {
            minimum = minimum.plusMillis(1);
        }
        return minimum;
    }

    private void checkTtl(Duration ttl) {
        LockSettingChecks.ttl(ttl, minimumTtl(), requestTimeout, safetyFraction);
    }

    /**
     * Configures {@link NamedLocks}. Defaults: owner {@link #processOwner()}, key prefix {@code locks/}, request
     * timeout 5s, poll interval 1s (blocking waits look again at least this often), safety margin 10% of each TTL,
     * no fair turn (the default mode), real clocks, one scheduler thread, one event thread, a cached pool of I/O threads for a blocking backend.
     */
    public static final class Builder {

        private final EngineRuntime.Builder runtime;
        private String owner = PROCESS_OWNER;
        private String keyPrefix = "locks/";
        private Duration requestTimeout = Duration.ofSeconds(5);
        private Duration pollInterval = Duration.ofSeconds(1);
        private double safetyFraction = 0.1;
        private LockTakeoverRule takeoverRule = TakeoverDecision::decide;
        private LockExtensionRule extensionRule = LockExtensionRule.EXACT;
        private LockAdoptionRule adoptionRule = LockAdoptionRule.WRITTEN;
        private LockTurnRule turnRule = LockTurnRule.TURNS;
        private Duration fairTurn = Duration.ZERO;

        private Builder(EngineRuntime.Builder runtime) {
            this.runtime = runtime;
        }

        /** The owner id written into records; must be unique per instance that may hold locks at once. */
        public Builder owner(String owner) {
            this.owner = LockSettingChecks.owner(owner);
            return this;
        }

        /** The key prefix under which lock records are stored (default {@code locks/}; empty for none). */
        public Builder keyPrefix(String keyPrefix) {
            this.keyPrefix = LockSettingChecks.keyPrefix(keyPrefix);
            return this;
        }

        /** The longest wait for one store request (default 5s); a renewal is bounded by the time left as well. */
        public Builder requestTimeout(Duration requestTimeout) {
            this.requestTimeout = LockSettingChecks.positive("requestTimeout", requestTimeout);
            return this;
        }

        /** How often a blocking acquire looks again at most apart, and a failed keep-alive retries (default 1s). */
        public Builder pollInterval(Duration pollInterval) {
            this.pollInterval = LockSettingChecks.positive("pollInterval", pollInterval);
            return this;
        }

        /**
         * How long before the written expiry the local deadline comes, as a share of each lock's TTL (default 0.1):
         * it absorbs the difference in clock rates between machines. The elector's {@code safetyMargin} is a duration
         * because its TTL is fixed; a lock's TTL is chosen per call, so its margin is a share of it. Between 0
         * (inclusive) and 0.5.
         */
        public Builder safetyMargin(double fractionOfTtl) {
            this.safetyFraction = LockSettingChecks.safetyFraction(fractionOfTtl);
            return this;
        }

        /**
         * The fair mode for every call that does not name its own turn window
         * ({@link Locks#tryAcquire(String, Duration, Duration)}): zero (the default) for none. With a window above
         * zero, an instance whose acquisition of a name ended less than {@code turn} ago yields its next attempt on
         * that name when it finds the name free, once per version it finds (L7, text in {@link dev.hoplock.core.lock}):
         * another instance that asks meanwhile takes it; alone, it takes it at its next attempt and then stays quiet
         * (yields no more) for ten windows. Choose about the interval of one instance's calls times the number of
         * instances less one. At most {@link #MAX_TTL}.
         */
        public Builder fairTurn(Duration turn) {
            this.fairTurn = LockSettingChecks.turn(turn);
            return this;
        }

        /** The clocks; default the system's (tests: {@link dev.hoplock.core.time.VirtualTime}). */
        public Builder timeSource(TimeSource time) {
            runtime.time(time);
            return this;
        }

        /** The scheduler for every timer of every name (tests: {@link dev.hoplock.core.time.VirtualTime}). */
        public Builder scheduler(Scheduler scheduler) {
            runtime.scheduler(scheduler);
            return this;
        }

        /**
         * Test seam (package-private, as the elector's): where timers run when the scheduler throws; default a thread
         * started on first need. The simulation passes one on its virtual clock.
         */
        Builder fallbackScheduler(Scheduler fallbackScheduler) {
            runtime.fallbackScheduler(fallbackScheduler);
            return this;
        }

        /** Where a blocking backend's calls run (default: a cached pool of daemon threads). */
        public Builder ioExecutor(Executor ioExecutor) {
            runtime.ioExecutor(ioExecutor);
            return this;
        }

        /** Where events and loss listeners run (default: one daemon thread); {@code Runnable::run} runs them inline. */
        public Builder eventExecutor(Executor eventExecutor) {
            runtime.eventExecutor(eventExecutor);
            return this;
        }

        /** Test seam (package-private): the simulation plants a broken takeover rule through it. */
        Builder takeoverRule(LockTakeoverRule rule) {
            this.takeoverRule = Objects.requireNonNull(rule, "rule");
            return this;
        }

        /** Test seam (package-private): the simulation plants a broken extension rule through it. */
        Builder extensionRule(LockExtensionRule rule) {
            this.extensionRule = Objects.requireNonNull(rule, "rule");
            return this;
        }

        /** Test seam (package-private): the simulation plants a broken adoption rule through it. */
        Builder adoptionRule(LockAdoptionRule rule) {
            this.adoptionRule = Objects.requireNonNull(rule, "rule");
            return this;
        }

        /** Test seam (package-private): the simulation plants a broken turn rule (L7) through it. */
        Builder turnRule(LockTurnRule rule) {
            this.turnRule = Objects.requireNonNull(rule, "rule");
            return this;
        }

        public NamedLocks build() {
            return new NamedLocks(this);
        }
    }
}
