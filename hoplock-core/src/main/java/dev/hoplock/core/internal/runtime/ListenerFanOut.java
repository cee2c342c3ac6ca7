package dev.hoplock.core.internal.runtime;

import dev.hoplock.core.lock.NamedLocks;

import org.slf4j.Logger;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;

/**
 * The listeners of one engine ({@link NamedLocks}, {@link dev.hoplock.core.ownership.OwnershipGroup}) and the delivery
 * of its events to them on the engine's event executor. Shared plumbing of the engines, not an API of its own: add
 * listeners through the engines.
 *
 * <p>Guarantees: {@link #publish} never runs a listener on the publishing thread (unless the executor does); one event
 * reaches the listeners in the order they were added, in one task, and events reach them in the order published when
 * the executor runs tasks in order; a listener that throws is logged and does not stop the others; an executor that
 * refuses the delivery loses that event, logged (at debug once it is shut down, as at close), never thrown at the
 * publisher. Thread-safe.
 *
 * @param <E> the event type
 */
public final class ListenerFanOut<E> {

    private final Executor executor;
    private final Logger log;
    private final String what;
    private final List<Consumer<? super E>> listeners = new CopyOnWriteArrayList<>();

    /**
     * @param executor where events are delivered
     * @param log      the engine's logger
     * @param what     what the events are, for log lines (for example {@code "lock"})
     */
    public ListenerFanOut(Executor executor, Logger log, String what) {
        this.executor = Objects.requireNonNull(executor, "executor");
        this.log = Objects.requireNonNull(log, "log");
        this.what = Objects.requireNonNull(what, "what");
    }

    /** Adds {@code listener}; closing the returned handle removes it. */
    public AutoCloseable add(Consumer<? super E> listener) {
        Objects.requireNonNull(listener, "listener");
        listeners.add(listener);
        return () -> listeners.remove(listener);
    }

    /** Delivers {@code event} to every listener added here. */
    public void publish(E event) {
        deliver(listeners, event);
    }

    /** Delivers {@code event} to {@code to} (a list owned elsewhere, such as one handle's listeners) in the same way. */
    public <T extends E> void deliver(List<? extends Consumer<? super T>> to, T event) {
        if (to.isEmpty()) {
            return;
        }
        try {
            executor.execute(() -> {
                for (Consumer<? super T> listener : to) {
                    try {
                        listener.accept(event);
                    } catch (RuntimeException e) {
                        log.warn("hoplock: a {} listener failed on {}", what, event, e);
                    }
                }
            });
        } catch (RejectedExecutionException e) {
            log.debug("hoplock: {} event not delivered (the event executor is shut down): {}", what, event);
        } catch (RuntimeException e) {
            log.warn("hoplock: a {} event could not be delivered ({})", what, e.toString());
        }
    }
}
