package dev.hoplock.spring.lock;

import dev.hoplock.core.InvalidSettingException;
import dev.hoplock.core.lock.AcquireResult;
import dev.hoplock.core.lock.LockHandle;
import dev.hoplock.core.lock.LockInterruptedException;
import dev.hoplock.core.lock.LockLostException;
import dev.hoplock.core.lock.LockScope;
import dev.hoplock.core.lock.Locks;
import dev.hoplock.core.time.TimeSource;
import dev.hoplock.spring.internal.gate.CallStyle;
import dev.hoplock.spring.internal.gate.GateObservations;
import dev.hoplock.spring.internal.gate.SkipValues;
import dev.hoplock.spring.observation.HoplockObservations;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.support.AopUtils;
import org.springframework.util.function.SingletonSupplier;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The {@code @WithLock} gate around one call.
 *
 * <p>Guarantees: the method runs only inside a {@link LockScope} of a lock this call acquired anew (an acquisition
 * that only extended a lock this instance already held is refused: one execution at a time, also within the
 * process). While it runs, {@link LockContextHolder} holds the lock. When the lock ends during the call the thread is
 * interrupted once (if asked), and that interrupt is cleared after the call only if the flag was clear when the call
 * began. After the call the lock is released, or, under the minimum-hold rule ({@link #finish}), left to expire at
 * acquisition + {@code lockAtLeastFor}, and until then every call of the name here is skipped, to the instant. A call
 * that does not run is reported to every {@link WithLockListener}, then skipped (see {@link SkipValues}) or refused
 * with {@link LockNotTakenException}. While the application does not take part ({@code hoplock.act-when}: not ready
 * yet, or refusing traffic) no lock is taken and no store request is made: the call is reported as
 * {@link WithLockListener.Refusal#NOT_READY} and skipped or refused the same way. The beans it needs are looked up at
 * the first call.
 *
 * <p>Fair mode ({@link WithLockAttribute#fairTurn()} above zero, rule L7 of {@code dev.hoplock.core.lock}): the
 * acquisition asks {@link Locks#tryAcquire(String, Duration, Duration)} with the turn window, and a turn given away is
 * a call not run (reported as held elsewhere). The minimum hold's renewal asks without it (an extension never yields).
 *
 * <p>Limit: unlike {@code @LeaderOnly}, a nested {@code @WithLock} call does not re-raise an interrupt an enclosing
 * call's lock delivered after clearing its own.
 *
 * <p>Observations: with an {@link ObservationRegistry} ({@link GateObservations}, decided at the first call), a call
 * that asks the store is one {@link HoplockObservations#WITH_LOCK} observation (the wait for the lock and the hold;
 * {@code outcome} says whether it ran), a child of the caller's current one, with a child
 * {@link HoplockObservations#WITH_LOCK_HOLD} from the acquisition to the release, current while the method runs. A
 * call refused here without a store request (held by a call of this instance) has none. The lock's name is never
 * recorded. Without a registry the path is unchanged but for one volatile read and a null check.
 */
final class WithLockInterceptor implements MethodInterceptor {

    private final WithLockAttributeSource source;
    /** Looked up at the first call, so that the advisor does not create the locks early. */
    private final SingletonSupplier<Locks> locks;
    private final SingletonSupplier<WithLockListener[]> listeners;
    /** The clock of the minimum hold and the held-time metric; null: the Locks bean's own ({@link Locks#time()}). */
    private final @Nullable TimeSource time;
    private final GateObservations observations;
    /** Why the application does not take part now (no lock is taken), or empty. */
    private final Supplier<Optional<String>> notReady;
    /** The last lock each name was taken with by a call here; removed when that lock ends. */
    private final Map<String, LockHandle> lastHeld = new ConcurrentHashMap<>();
    /**
     * Per name, the end of the minimum hold of the last call here that ended before its {@code lockAtLeastFor}, on
     * {@link #time}'s monotonic clock; a call before it is skipped (see {@link #finish}). Entries past their end are
     * dropped when the name is called again, or all at once when there are many.
     */
    private final Map<String, Long> minimumHoldEnds = new ConcurrentHashMap<>();
    /** The call style of each gated method that does not return a primitive (a direct call's path skips this). */
    private final Map<Method, CallStyle> styles = new ConcurrentHashMap<>();

    WithLockInterceptor(WithLockAttributeSource source, Supplier<Locks> locks,
            Supplier<List<WithLockListener>> listeners) {
        this(source, locks, listeners, TimeSource.system());
    }

    /** {@code time}: the clock of the minimum hold and the held-time metric (tests: the locks' virtual time). */
    WithLockInterceptor(WithLockAttributeSource source, Supplier<Locks> locks,
            Supplier<List<WithLockListener>> listeners, TimeSource time) {
        this(source, locks, listeners, Optional::empty, time);
    }

    /**
     * {@code notReady}: asked at every call before anything else is done; a reason means the application does not
     * take part now (not ready yet, or refusing traffic): the call is not run ({@link WithLockListener.Refusal#NOT_READY}).
     */
    WithLockInterceptor(WithLockAttributeSource source, Supplier<Locks> locks,
            Supplier<List<WithLockListener>> listeners, Supplier<Optional<String>> notReady, TimeSource time) {
        this(source, locks, listeners, notReady, time, GateObservations.none());
    }

    /** As above; {@code observations}: whether and where calls are observed (decided at the first call). */
    WithLockInterceptor(WithLockAttributeSource source, Supplier<Locks> locks,
            Supplier<List<WithLockListener>> listeners, Supplier<Optional<String>> notReady, @Nullable TimeSource time,
            GateObservations observations) {
        this.observations = Objects.requireNonNull(observations, "observations");
        this.notReady = Objects.requireNonNull(notReady, "notReady");
        this.time = time;
        this.source = Objects.requireNonNull(source, "source");
        Objects.requireNonNull(locks, "locks");
        Objects.requireNonNull(listeners, "listeners");
        this.locks = SingletonSupplier.of(() -> Objects.requireNonNull(locks.get(), "no Locks bean"));
        this.listeners = SingletonSupplier.of(() -> listeners.get().toArray(WithLockListener[]::new));
    }

    /** The locks, looked up at the first call that needs them. */
    Locks locks() {
        return locks.obtain();
    }

    WithLockListener[] listeners() {
        return listeners.obtain();
    }

    /** The clock of the minimum hold: the one given, or the Locks bean's, so a test's virtual time ends it too. */
    TimeSource time() {
        TimeSource fixed = time;
        return fixed != null ? fixed : locks.obtain().time();
    }

    /** Why the application does not take part now, or empty. */
    Optional<String> notReady() {
        return notReady.get();
    }

    /** The lock a call here took {@code name} with, while it may still be held; null when none. */
    @Nullable LockHandle lastHeld(String name) {
        return lastHeld.get(name);
    }

    void held(String name, LockHandle lock) {
        lastHeld.put(name, lock);
    }

    void notHeld(String name, LockHandle lock) {
        lastHeld.remove(name, lock);
    }

    @Override
    public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
        Method method = invocation.getMethod();
        Object target = invocation.getThis();
        WithLockAttribute gate = source.find(method, target == null ? null : AopUtils.getTargetClass(target));
        if (gate == null) {
            return invocation.proceed();
        }
        LockNameTemplate template = gate.name();
        if (gate.problem() != null || template == null) {
            throw new IllegalStateException(gate.origin() + " cannot work: " + gate.problem());
        }
        String name = template.evaluate(method, invocation.getArguments(), target, gate.origin());
        if (!method.getReturnType().isPrimitive()) {
            CallStyle style = styles.computeIfAbsent(method, CallStyle::of);
            if (style != CallStyle.DIRECT) {
                // Per subscription: the checks below, an acquisition that never blocks, the release at the end.
                return DeferredWithLock.gate(this, invocation, method, gate, name, style);
            }
        }
        Optional<String> notTakingPart = notReady.get();
        if (notTakingPart.isPresent()) {
            // The application does not take part now (hoplock.act-when): no store request, skipped like a follower.
            return notRun(gate, method, name, WithLockListener.Refusal.NOT_READY, null, notTakingPart.get());
        }
        LockHandle running = lastHeld.get(name);
        if (running != null && running.isHeld() || inMinimumHold(name)) {
            return notRun(gate, method, name, WithLockListener.Refusal.HELD_HERE, null);
        }
        ObservationRegistry registry = observations.registry();
        if (registry == null) {
            return acquireAndRun(invocation, gate, method, name, null, null);
        }
        Observation call = observations.withLock(registry, method)
                // Set on every path below (and left so when the acquisition throws): one key set per name.
                .lowCardinalityKeyValue(HoplockObservations.OUTCOME, "error")
                .lowCardinalityKeyValue(HoplockObservations.LOST, "false")
                .start();
        try (Observation.Scope ignored = call.openScope()) {
            return acquireAndRun(invocation, gate, method, name, registry, call);
        } catch (Throwable e) {
            call.error(e);
            throw e;
        } finally {
            call.stop();
        }
    }

    /**
     * Acquires the lock and runs the call; {@code call}, the call's observation (null: not observed), gets its
     * {@code outcome} and, when the lock is taken, an event and the hold's child observation.
     */
    private @Nullable Object acquireAndRun(MethodInvocation invocation, WithLockAttribute gate, Method method,
            String name, @Nullable ObservationRegistry registry, @Nullable Observation call) throws Throwable {
        Locks all = locks.obtain();
        long start = time().nanoTime();
        // Always with the gate's turn: zero is the default mode, whatever the Locks bean's own default.
        AcquireResult answer = all.tryAcquire(name, gate.atMostFor(), gate.fairTurn());
        if (!(answer instanceof AcquireResult.Acquired acquired)) {
            WithLockListener.Refusal why = answer instanceof AcquireResult.Unavailable
                    ? WithLockListener.Refusal.UNAVAILABLE : WithLockListener.Refusal.HELD_ELSEWHERE;
            return observedNotRun(call, gate, method, name, why, answer);
        }
        if (acquired.extended()) {
            // Another thread of this instance took it between the check above and this acquisition.
            return observedNotRun(call, gate, method, name, WithLockListener.Refusal.HELD_HERE, null);
        }
        LockHandle lock = acquired.handle();
        lastHeld.put(name, lock);
        lock.onLost(lost -> lastHeld.remove(name, lock));
        boolean interruptedOnEntry = Thread.currentThread().isInterrupted();
        LockScope scope;
        try {
            scope = lock.enterScope(gate.interruptOnLoss());
        } catch (LockLostException e) {
            // The lock ended between its acquisition and the call (a TTL shorter than the store's answer).
            lastHeld.remove(name, lock);
            for (WithLockListener listener : listeners.obtain()) {
                listener.ended(name, method, Duration.ofNanos(time().nanoTime() - start), true);
            }
            return observedNotRun(call, gate, method, name, WithLockListener.Refusal.UNAVAILABLE, answer);
        }
        for (WithLockListener listener : listeners.obtain()) {
            listener.acquired(name, method);
        }
        Observation hold = null;
        Observation.Scope holding = null;
        if (call != null && registry != null) {
            call.event(HoplockObservations.LOCK_ACQUIRED)
                    .lowCardinalityKeyValue(HoplockObservations.OUTCOME, "ran");
            hold = observations.withLockHold(registry, method).parentObservation(call).start();
            holding = hold.openScope();
        }
        LockHandle previous = LockContextHolder.enter(lock);
        try {
            return invocation.proceed();
        } catch (Throwable e) {
            if (hold != null) {
                hold.error(e);
            }
            throw e;
        } finally {
            LockContextHolder.restore(previous);
            boolean lost = scope.wasLost() || !lock.isHeld();
            boolean delivered = gate.interruptOnLoss() && scope.wasLost();
            scope.close();
            if (delivered && !interruptedOnEntry) {
                Thread.interrupted();
            }
            Duration heldFor = finish(all, lock, gate, start, lost);
            for (WithLockListener listener : listeners.obtain()) {
                listener.ended(name, method, heldFor, lost);
            }
            if (hold != null && holding != null && call != null) {
                String wasLost = Boolean.toString(lost);
                holding.close();
                hold.lowCardinalityKeyValue(HoplockObservations.LOST, wasLost).stop();
                call.lowCardinalityKeyValue(HoplockObservations.LOST, wasLost);
            }
        }
    }

    /**
     * The minimum-hold rule, in one place: when the call ends before {@code lockAtLeastFor} has passed since the
     * acquisition began (the instant {@code start}, read before the acquiring request was sent), the lock is not
     * released but renewed for what remains, so that its record expires at acquisition + {@code lockAtLeastFor}, and
     * left to expire; otherwise it is released. A renewal that fails leaves the record as it was, expiring at
     * acquisition + {@code lockAtMostFor}: later, never earlier.
     *
     * <p>What that guarantees, exactly: on this instance every call of the name is skipped until acquisition +
     * {@code lockAtLeastFor} by its monotonic clock (kept here: the renewed lock itself counts as held only until a
     * safety margin, 10 % of what remained, before its record's expiry); another instance takes the lock only after
     * it has seen the renewed record unchanged for its own {@code lockAtMostFor} (at least {@code lockAtLeastFor})
     * and its expiry passed by its own wall clock, so not before either.
     *
     * @return how long the lock was held
     */
    private Duration finish(Locks all, LockHandle lock, WithLockAttribute gate, long start, boolean lost) {
        long elapsed = time().nanoTime() - start;
        long remaining = gate.atLeastFor().toNanos() - elapsed;
        if (lost) {
            return Duration.ofNanos(elapsed);
        }
        if (remaining > 0) {
            keepUntil(lock.name(), start + gate.atLeastFor().toNanos());
            AcquireResult kept;
            try {
                kept = keep(all, lock.name(), Duration.ofNanos(remaining));
            } catch (LockInterruptedException e) {
                return gate.atLeastFor();
            }
            if (kept instanceof AcquireResult.Acquired acquired && !acquired.extended()) {
                // The hold had ended and this was a new acquisition: it is not ours to keep.
                release(acquired.handle());
                return Duration.ofNanos(elapsed);
            }
            return gate.atLeastFor();
        }
        lastHeld.remove(lock.name(), lock);
        release(lock);
        return Duration.ofNanos(elapsed);
    }

    /**
     * Renews {@code name} for {@code remaining}; when that is below the shortest TTL the locks accept (a call that
     * ended just before its minimum hold), for that shortest TTL instead: the record then expires up to that much
     * after acquisition + {@code lockAtLeastFor} (later, never earlier), and this instance skips the name until the
     * renewed lock's local validity ends.
     */
    private static AcquireResult keep(Locks all, String name, Duration remaining) {
        try {
            return all.tryAcquire(name, remaining, Duration.ZERO);
        } catch (InvalidSettingException e) {
            if ("ttl".equals(e.setting()) && e.limit() instanceof Duration minimum
                    && remaining.compareTo(minimum) < 0) {
                return all.tryAcquire(name, minimum, Duration.ZERO);
            }
            throw e;
        }
    }

    /** Whether a call here ended within its minimum hold, which has not ended yet (dropping one that has). */
    boolean inMinimumHold(String name) {
        Long end = minimumHoldEnds.get(name);
        if (end == null) {
            return false;
        }
        if (time().nanoTime() - end < 0) {
            return true;
        }
        minimumHoldEnds.remove(name, end);
        return false;
    }

    void keepUntil(String name, long end) {
        if (minimumHoldEnds.size() >= 10_000) {
            long now = time().nanoTime();
            minimumHoldEnds.values().removeIf(e -> now - e >= 0);
        }
        minimumHoldEnds.put(name, end);
    }

    private static void release(LockHandle lock) {
        try {
            lock.release();
        } catch (LockInterruptedException e) {
            // The caller's interrupt stands (set again); the record expires by itself at its TTL.
        }
    }

    @Nullable Object notRun(WithLockAttribute gate, Method method, String name, WithLockListener.Refusal why,
            @Nullable AcquireResult answer) {
        return notRun(gate, method, name, why, answer, null);
    }

    @Nullable Object notRun(WithLockAttribute gate, Method method, String name, WithLockListener.Refusal why,
            @Nullable AcquireResult answer, @Nullable String notReadyBecause) {
        for (WithLockListener listener : listeners.obtain()) {
            listener.refused(name, method, why);
        }
        if (gate.whenHeld() == WhenLockHeld.THROW) {
            throw new LockNotTakenException(name, gate.origin() + " runs only when it can take the lock '" + name
                    + "', and " + (notReadyBecause != null ? "no lock is taken while " + notReadyBecause
                    : describe(why, answer)), answer);
        }
        return SkipValues.of(method.getReturnType());
    }

    /** {@link #notRun}, with the refusal as the {@code outcome} of the call's observation (null: not observed). */
    private @Nullable Object observedNotRun(@Nullable Observation call, WithLockAttribute gate, Method method,
            String name, WithLockListener.Refusal why, @Nullable AcquireResult answer) {
        if (call != null) {
            call.lowCardinalityKeyValue(HoplockObservations.OUTCOME, why.name().toLowerCase(java.util.Locale.ROOT));
        }
        return notRun(gate, method, name, why, answer);
    }

    private static String describe(WithLockListener.Refusal why, @Nullable AcquireResult answer) {
        if (answer instanceof AcquireResult.HeldByAnother held && held.holder().isEmpty()
                && held.expiresAt() != null) {
            return "its record is released (token " + held.token() + "), but this instance ran under it less than its"
                    + " fair turn ago and lets another instance take it first (fairTurn; it runs at its next call if"
                    + " nobody did)";
        }
        if (answer instanceof AcquireResult.HeldByAnother held) {
            return "it is held by " + (held.holder().isEmpty() ? "an unknown owner" : "'" + held.holder() + "'")
                    + " (token " + held.token() + ")" + (held.expiresAt() == null ? ""
                    : ", expiring at " + held.expiresAt() + " by its clock");
        }
        if (answer instanceof AcquireResult.Unavailable unavailable) {
            return "the store gave no usable answer: " + unavailable.cause().getMessage();
        }
        return why == WithLockListener.Refusal.HELD_HERE
                ? "a call of this instance holds it (still running, or in its lockAtLeastFor)"
                : "it could not be taken";
    }
}
