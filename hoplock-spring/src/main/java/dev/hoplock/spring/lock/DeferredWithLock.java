package dev.hoplock.spring.lock;

import dev.hoplock.core.InvalidSettingException;
import dev.hoplock.core.lock.AcquireResult;
import dev.hoplock.core.lock.LockHandle;
import dev.hoplock.core.lock.LockLostException;
import dev.hoplock.core.lock.Locks;
import dev.hoplock.spring.internal.gate.CallStyle;
import dev.hoplock.spring.internal.gate.DeferredGate;
import dev.hoplock.spring.internal.gate.GateAttributeSource;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The {@code @WithLock} gate of a method whose work runs at subscription (a {@code Mono}, a {@code Flux}, a Kotlin
 * suspend function), over {@link DeferredGate}.
 *
 * <p>Guarantees, per subscription, as {@link WithLockInterceptor} does per call: no lock and no store request while
 * the application does not take part ({@code hoplock.act-when}); a name held by a call of this instance (running, or
 * in its {@code lockAtLeastFor}) is refused without a store request; otherwise one non-blocking acquisition
 * ({@link Locks#tryAcquireAsync}): the subscriber's thread never waits for the store. An acquisition that only
 * extended a lock this instance held is refused. While the method's publisher runs, the lock is its
 * {@link ReactiveLockContext}; the loss of the lock cancels it and the subscription fails with
 * {@link LockLostException}. When the subscription terminates (completion, error, cancellation) the lock is released
 * with {@link LockHandle#releaseAsync()}, or, under the minimum-hold rule, renewed for what remains of
 * {@code lockAtLeastFor} and left to expire, every call of the name here being skipped until then; a single-value
 * subscription completes only after that. A subscription cancelled while its acquisition is in flight releases the
 * lock the acquisition brings, if any. A refused subscription is reported to every {@link WithLockListener}, then
 * empty (SKIP) or failed with {@link LockNotTakenException} (THROW).
 */
final class DeferredWithLock {

    private DeferredWithLock() {
    }

    static Object gate(WithLockInterceptor calls, MethodInvocation invocation, Method method, WithLockAttribute gate,
            String name, CallStyle style) {
        return DeferredGate.gate(invocation, method, style, onLoss -> Mono.defer(() -> {
            Optional<String> notTakingPart = calls.notReady();
            if (notTakingPart.isPresent()) {
                return refused(() -> calls.notRun(gate, method, name, WithLockListener.Refusal.NOT_READY, null,
                        notTakingPart.get()));
            }
            LockHandle running = calls.lastHeld(name);
            if (running != null && running.isHeld() || calls.inMinimumHold(name)) {
                return refused(() -> calls.notRun(gate, method, name, WithLockListener.Refusal.HELD_HERE, null));
            }
            Locks locks = calls.locks();
            long start = calls.time().nanoTime();
            // With the gate's turn, as the direct call (zero: the default mode, whatever the Locks bean's default).
            CompletableFuture<AcquireResult> acquiring =
                    locks.tryAcquireAsync(name, gate.atMostFor(), gate.fairTurn());
            // One decision between the answer and a cancellation: whichever sets it first (Reactor checks for a
            // cancellation and then passes the answer on, not atomically, so both may run).
            AtomicBoolean decided = new AtomicBoolean();
            return Mono.fromFuture(acquiring, true)
                    // Cancelled before the answer was taken in: what it acquires is released, never left held.
                    .doOnCancel(() -> {
                        if (decided.compareAndSet(false, true)) {
                            acquiring.thenAccept(DeferredWithLock::releaseIfTaken);
                        }
                    })
                    .flatMap(answer -> {
                        if (!decided.compareAndSet(false, true)) {
                            releaseIfTaken(answer);
                            return Mono.<DeferredGate.Entry>empty();
                        }
                        return entered(calls, method, gate, name, start, answer, onLoss);
                    });
        }));
    }

    private static Mono<DeferredGate.Entry> entered(WithLockInterceptor calls, Method method, WithLockAttribute gate,
            String name, long start, AcquireResult answer, Runnable onLoss) {
        if (!(answer instanceof AcquireResult.Acquired acquired)) {
            WithLockListener.Refusal why = answer instanceof AcquireResult.Unavailable
                    ? WithLockListener.Refusal.UNAVAILABLE : WithLockListener.Refusal.HELD_ELSEWHERE;
            return refused(() -> calls.notRun(gate, method, name, why, answer));
        }
        if (acquired.extended()) {
            return refused(() -> calls.notRun(gate, method, name, WithLockListener.Refusal.HELD_HERE, null));
        }
        LockHandle lock = acquired.handle();
        calls.held(name, lock);
        // L5: a lost lock is told; the listener runs on the locks' event thread and only hands the loss off.
        lock.onLost(lost -> {
            calls.notHeld(name, lock);
            onLoss.run();
        });
        if (!lock.isHeld()) {
            // Ended between its acquisition and now (a TTL shorter than the store's answer).
            calls.notHeld(name, lock);
            for (WithLockListener listener : calls.listeners()) {
                listener.ended(name, method, Duration.ofNanos(calls.time().nanoTime() - start), true);
            }
            return refused(() -> calls.notRun(gate, method, name, WithLockListener.Refusal.UNAVAILABLE, answer));
        }
        for (WithLockListener listener : calls.listeners()) {
            listener.acquired(name, method);
        }
        return Mono.just(new LockEntry(calls, method, gate, lock, start));
    }

    /** Reports a refusal (which tells the listeners): empty for SKIP, the error for THROW. */
    private static Mono<DeferredGate.Entry> refused(Refusal refusal) {
        try {
            refusal.report();
        } catch (LockNotTakenException e) {
            return Mono.error(e);
        }
        return Mono.empty();
    }

    @FunctionalInterface
    private interface Refusal {
        @Nullable Object report();
    }

    private static void releaseIfTaken(AcquireResult late) {
        if (late instanceof AcquireResult.Acquired acquired && !acquired.extended()) {
            acquired.handle().releaseAsync();
        }
    }

    /** The lock of one subscription. */
    private record LockEntry(WithLockInterceptor calls, Method method, WithLockAttribute gate, LockHandle lock,
                             long start) implements DeferredGate.Entry {

        @Override
        public Object contextKey() {
            return ReactiveLockContext.KEY;
        }

        @Override
        public Object contextValue() {
            return lock;
        }

        @Override
        public boolean isValid() {
            return lock.isHeld();
        }

        @Override
        public RuntimeException lost() {
            return new LockLostException("the lock '" + lock.name() + "' (token " + lock.token() + ") ended while "
                    + GateAttributeSource.describe(method) + " ran: its subscription was cancelled");
        }

        /** The minimum-hold rule of {@link WithLockInterceptor}, without blocking; then the listeners. */
        @Override
        public Publisher<?> exit(boolean lostWhileRunning) {
            return Mono.defer(() -> {
                boolean lost = lostWhileRunning || !lock.isHeld();
                long elapsed = calls.time().nanoTime() - start;
                long remaining = gate.atLeastFor().toNanos() - elapsed;
                Mono<Duration> finished;
                if (lost) {
                    calls.notHeld(lock.name(), lock);
                    finished = Mono.just(Duration.ofNanos(elapsed));
                } else if (remaining > 0) {
                    calls.keepUntil(lock.name(), start + gate.atLeastFor().toNanos());
                    finished = keep(calls.locks(), lock.name(), Duration.ofNanos(remaining))
                            .flatMap(kept -> {
                                if (kept instanceof AcquireResult.Acquired acquired && !acquired.extended()) {
                                    // The hold had ended and this was a new acquisition: it is not ours to keep.
                                    return Mono.fromFuture(acquired.handle().releaseAsync(), true)
                                            .thenReturn(Duration.ofNanos(elapsed));
                                }
                                return Mono.just(gate.atLeastFor());
                            });
                } else {
                    calls.notHeld(lock.name(), lock);
                    finished = Mono.fromFuture(lock.releaseAsync(), true).thenReturn(Duration.ofNanos(elapsed));
                }
                return finished
                        .onErrorResume(e -> Mono.just(Duration.ofNanos(elapsed)))
                        .doOnNext(heldFor -> {
                            for (WithLockListener listener : calls.listeners()) {
                                listener.ended(lock.name(), method, heldFor, lost);
                            }
                        });
            });
        }

        /** Renews {@code name} for {@code remaining}, or for the shortest TTL the locks accept when that is more. */
        private static Mono<AcquireResult> keep(Locks locks, String name, Duration remaining) {
            return Mono.defer(() -> Mono.fromFuture(locks.tryAcquireAsync(name, remaining, Duration.ZERO), true))
                    .onErrorResume(InvalidSettingException.class, e -> {
                        if ("ttl".equals(e.setting()) && e.limit() instanceof Duration minimum
                                && remaining.compareTo(minimum) < 0) {
                            return Mono.fromFuture(locks.tryAcquireAsync(name, minimum, Duration.ZERO), true);
                        }
                        return Mono.error(e);
                    });
        }
    }
}
