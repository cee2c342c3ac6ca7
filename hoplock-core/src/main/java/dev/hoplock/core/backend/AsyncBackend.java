package dev.hoplock.core.backend;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

/**
 * The non-blocking form of {@link Backend} that the elector drives. It carries the same contract as
 * {@link Backend}; a stage that completes exceptionally with a {@link BackendException} means "no answer".
 *
 * <p>Most users never implement this: {@link #on(Backend, Executor)} adapts a blocking backend. It exists so that
 * simulations can deliver answers in virtual time (late, lost, or never).
 */
public interface AsyncBackend {

    CompletionStage<Optional<StoredObject>> read(String key, Duration timeout);

    CompletionStage<WriteResult> write(String key, Handle expected, byte[] content, Duration timeout);

    CompletionStage<DeleteResult> delete(String key, Handle expected, Duration timeout);

    /**
     * See {@link Backend#verify()}: what the store's conditional requests do. The elector calls it before it campaigns
     * and bounds it by its request timeout. A stage that completes exceptionally with a {@link BackendException} means
     * the store could not be asked. The default reports every capability
     * {@link StoreCapabilities.Support#ASSUMED}, at once.
     */
    default CompletionStage<StoreCapabilities> verify() {
        return CompletableFuture.completedFuture(StoreCapabilities.assumed(describe()));
    }

    /** See {@link Backend#describe()}. */
    String describe();

    /** Runs each call of the blocking {@code backend} on {@code executor}. */
    static AsyncBackend on(Backend backend, Executor executor) {
        Objects.requireNonNull(backend, "backend");
        Objects.requireNonNull(executor, "executor");
        return new AsyncBackend() {
            @Override
            public CompletionStage<Optional<StoredObject>> read(String key, Duration timeout) {
                return call(() -> backend.read(key, timeout));
            }

            @Override
            public CompletionStage<WriteResult> write(String key, Handle expected, byte[] content, Duration timeout) {
                return call(() -> backend.write(key, expected, content, timeout));
            }

            @Override
            public CompletionStage<DeleteResult> delete(String key, Handle expected, Duration timeout) {
                return call(() -> backend.delete(key, expected, timeout));
            }

            @Override
            public CompletionStage<StoreCapabilities> verify() {
                return call(backend::verify);
            }

            @Override
            public String describe() {
                return backend.describe();
            }

            private <T> CompletionStage<T> call(BackendCall<T> call) {
                CompletableFuture<T> result = new CompletableFuture<>();
                try {
                    executor.execute(() -> {
                        try {
                            result.complete(call.run());
                        } catch (Throwable e) {
                            result.completeExceptionally(e);
                        }
                    });
                } catch (RuntimeException rejected) {
                    result.completeExceptionally(rejected);
                }
                return result;
            }
        };
    }

    /** A blocking backend call. */
    @FunctionalInterface
    interface BackendCall<T> {
        T run() throws BackendException;
    }
}
