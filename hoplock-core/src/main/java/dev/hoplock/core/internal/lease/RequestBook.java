package dev.hoplock.core.internal.lease;

import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.election.Elector;
import dev.hoplock.core.internal.runtime.LoopTimers;
import dev.hoplock.core.time.HumanDurations;
import dev.hoplock.core.time.Scheduler;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * Rule 3 of the {@link Elector}'s safety argument, <em>bounded requests</em>: at most one store request in flight, each
 * abandoned at its timeout, and no answer handled after that.
 *
 * <p>Guarantees: the handler of a request runs exactly once, under the owner's lock: with the answer (value, or the
 * failure as a {@link BackendException}), or with a {@link BackendException.Kind#TRANSIENT} "no answer" failure when
 * {@code timeout} passes first. An answer arriving after the timeout (or after a later request was sent) is ignored, so
 * a write's outcome then counts as unknown (rule 5) and no late answer extends a term that has already ended. Before
 * each handler runs, {@code beforeHandling} runs (the elector ends a term past its deadline there: rule 2). A request
 * that throws instead of returning a stage counts as failed.
 *
 * <p>Must be used under the lock given to the constructor. Internal to {@code dev.hoplock.core}; shared by the elector
 * and named locks.
 * <p>Implements E3; text in {@link Elector}.
 */
public final class RequestBook {

    /** Runs a handler so that an unexpected exception is reported instead of escaping (the loop's guard). */
    public interface Guard {
        void run(String activity, Runnable body);
    }

    private final Object lock;
    private final LoopTimers timers;
    private final Supplier<String> store;
    private final Runnable beforeHandling;
    private final Guard guard;

    private long opCounter;
    private long activeOp;
    private Scheduler.@Nullable Cancellable opTimeout;
    private CompletableFuture<Void> idle = CompletableFuture.completedFuture(null);

    /**
     * @param lock           the owner's lock: answers and timeouts are handled holding it
     * @param timers         where request timeouts run
     * @param store          the store's description, for messages (asked each time)
     * @param beforeHandling runs under the lock before every handler
     * @param guard          runs every handler
     */
    public RequestBook(Object lock, LoopTimers timers, Supplier<String> store, Runnable beforeHandling, Guard guard) {
        this.lock = lock;
        this.timers = timers;
        this.store = store;
        this.beforeHandling = beforeHandling;
        this.guard = guard;
    }

    /**
     * Sends one request. The answer, or a timeout after {@code timeout}, is handled once under the lock; an answer
     * arriving after the timeout is ignored (and a write's outcome then counts as unknown). Exactly one of the
     * handler's two arguments is non-null.
     */
    public <T> void send(Supplier<CompletionStage<T>> call, Duration timeout,
                  BiConsumer<@Nullable T, @Nullable BackendException> handler) {
        long op = ++opCounter;
        activeOp = op;
        idle = new CompletableFuture<>();
        opTimeout = timers.schedule(() -> {
            synchronized (lock) {
                if (activeOp != op) {
                    return;
                }
                CompletableFuture<Void> wasIdle = finish();
                beforeHandling.run();
                BackendException noAnswer = new BackendException(BackendException.Kind.TRANSIENT, "no answer from "
                        + store.get() + " within " + HumanDurations.format(timeout));
                guard.run("handling a request timeout", () -> handler.accept(null, noAnswer));
                wasIdle.complete(null);
            }
        }, timeout);
        CompletionStage<T> stage;
        try {
            stage = call.get();
        } catch (RuntimeException e) {
            stage = CompletableFuture.failedFuture(e);
        }
        stage.whenComplete((value, error) -> {
            synchronized (lock) {
                if (activeOp != op) {
                    return;
                }
                CompletableFuture<Void> wasIdle = finish();
                beforeHandling.run();
                guard.run("handling an answer of " + store.get(),
                        () -> handler.accept(error == null ? value : null, error == null ? null : asBackendException(error)));
                wasIdle.complete(null);
            }
        });
    }

    /** True while a request is in flight (sent, neither answered nor timed out). */
    public boolean busy() {
        return activeOp != 0;
    }

    /**
     * Completes once no request is in flight, after the last answer was handled: so whoever waits (a closing elector
     * about to release) sees the state that answer left, such as the handle of a renewal that was in flight.
     */
    public CompletableFuture<Void> idle() {
        synchronized (lock) {
            return activeOp == 0 ? CompletableFuture.completedFuture(null) : idle;
        }
    }

    /** Cancels the timeout timer of the request in flight, if any (the owner is stopping). */
    public void cancelTimeout() {
        if (opTimeout != null) {
            opTimeout.cancel();
        }
    }

    /**
     * Marks the request as answered and returns the future that waits for it; the caller completes that future only
     * after the answer was handled.
     */
    private CompletableFuture<Void> finish() {
        activeOp = 0;
        cancelTimeout();
        opTimeout = null;
        return idle;
    }

    private BackendException asBackendException(Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        if (cause instanceof BackendException backendException) {
            return backendException;
        }
        return new BackendException(BackendException.Kind.TRANSIENT, "request to " + store.get()
                + " failed unexpectedly: " + cause, cause);
    }
}
