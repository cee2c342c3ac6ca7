package dev.hoplock.core.lock;

import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The operations of one lock name, run one at a time in call order: an acquisition attempt, a keep-alive renewal or a
 * release starts only once every operation queued before it has completed.
 *
 * <p>Guarantees: each operation starts under the slot's monitor (the lock that guards all of its state); its future
 * completes with the operation's answer, or its failure (an operation that throws fails only its own future, never
 * the queue).
 */
final class SlotQueue {

    private final Object monitor;
    /** Guarded by {@link #monitor}. */
    private CompletableFuture<?> tail = CompletableFuture.completedFuture(null);

    SlotQueue(Object monitor) {
        this.monitor = monitor;
    }

    /** Runs {@code op} after every operation queued before it; its future completes with the op's answer. */
    <T> CompletableFuture<T> enqueue(Supplier<CompletableFuture<T>> op) {
        synchronized (monitor) {
            CompletableFuture<T> result = new CompletableFuture<>();
            CompletableFuture<?> previous = tail;
            tail = result.handle((value, error) -> null);
            previous.whenComplete((ignored, error) -> {
                synchronized (monitor) {
                    CompletableFuture<T> stage;
                    try {
                        stage = op.get();
                    } catch (RuntimeException e) {
                        stage = CompletableFuture.failedFuture(e);
                    }
                    stage.whenComplete((value, failure) -> {
                        if (failure != null) {
                            result.completeExceptionally(failure);
                        } else {
                            result.complete(value);
                        }
                    });
                }
            });
            return result;
        }
    }
}
