package dev.hoplock.core;

import dev.hoplock.core.backend.AsyncBackend;
import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * One node's view of a shared store, with faults a test switches on: requests that fail before reaching the store,
 * writes whose answer is lost after they happened, and requests that never answer.
 */
public final class FaultyBackend implements AsyncBackend {

    /**
     * LOSE_ANSWER applies to writes and deletes only: reads answer normally. DEFER applies each request at once and
     * holds its answer until {@link #deliverDeferred()}.
     */
    public enum Mode { NORMAL, FAIL, LOSE_ANSWER, HANG, DEFER }

    public record Call(String operation, Duration timeout) {
    }

    private final Backend store;
    public final List<Call> calls = new CopyOnWriteArrayList<>();
    public volatile Mode mode = Mode.NORMAL;
    /**
     * The next this many writes take effect but are answered with a refusal, as when a client library retries a write
     * whose answer was lost and the retry meets the version the first attempt created (412).
     */
    public volatile int applyThenRefuse;
    /**
     * The next this many writes are refused without effect, as S3 does with 409 ConditionalRequestConflict (in DEFER
     * mode the refusal is held like any answer).
     */
    public volatile int refuseWithoutEffect;
    /** The next this many reads fail (in NORMAL mode). */
    public volatile int failReads;
    /** The next this many reads answer null, breaking the backend contract (a buggy backend). */
    public volatile int nullReads;
    private final List<Runnable> deferred = new CopyOnWriteArrayList<>();

    public FaultyBackend(Backend store) {
        this.store = store;
    }

    @Override
    public CompletionStage<Optional<StoredObject>> read(String key, Duration timeout) {
        calls.add(new Call("read", timeout));
        if (mode == Mode.NORMAL && nullReads > 0) {
            nullReads--;
            return CompletableFuture.completedFuture(null);
        }
        if (mode == Mode.NORMAL && failReads > 0) {
            failReads--;
            return CompletableFuture.failedFuture(new BackendException(BackendException.Kind.TRANSIENT, "injected read failure"));
        }
        if (mode == Mode.LOSE_ANSWER) {
            try {
                return CompletableFuture.completedFuture(store.read(key, timeout));
            } catch (BackendException e) {
                return CompletableFuture.failedFuture(e);
            }
        }
        return run(() -> store.read(key, timeout));
    }

    @Override
    public CompletionStage<WriteResult> write(String key, Handle expected, byte[] content, Duration timeout) {
        calls.add(new Call(expected.isNone() ? "create" : "write", timeout));
        if ((mode == Mode.NORMAL || mode == Mode.DEFER) && refuseWithoutEffect > 0) {
            refuseWithoutEffect--;
            return run(() -> new WriteResult.Refused(WriteResult.Refusal.PRECONDITION_FAILED));
        }
        if (mode == Mode.NORMAL && applyThenRefuse > 0) {
            applyThenRefuse--;
            return run(() -> {
                store.write(key, expected, content, timeout);
                return new WriteResult.Refused(WriteResult.Refusal.PRECONDITION_FAILED);
            });
        }
        return run(() -> store.write(key, expected, content, timeout));
    }

    @Override
    public CompletionStage<DeleteResult> delete(String key, Handle expected, Duration timeout) {
        calls.add(new Call("delete", timeout));
        return run(() -> store.delete(key, expected, timeout));
    }

    @Override
    public String describe() {
        return "faulty(" + store.describe() + ")";
    }

    private <T> CompletionStage<T> run(AsyncBackend.BackendCall<T> call) {
        switch (mode) {
            case FAIL:
                return CompletableFuture.failedFuture(new BackendException(BackendException.Kind.TRANSIENT, "injected failure"));
            case HANG:
                return new CompletableFuture<>();
            case DEFER:
                CompletableFuture<T> answer = new CompletableFuture<>();
                try {
                    T value = call.run();
                    deferred.add(() -> answer.complete(value));
                } catch (BackendException e) {
                    deferred.add(() -> answer.completeExceptionally(e));
                }
                return answer;
            case LOSE_ANSWER:
                try {
                    call.run();
                } catch (BackendException e) {
                    return CompletableFuture.failedFuture(e);
                }
                return CompletableFuture.failedFuture(new BackendException(BackendException.Kind.TRANSIENT, "answer lost"));
            default:
                try {
                    return CompletableFuture.completedFuture(call.run());
                } catch (BackendException e) {
                    return CompletableFuture.failedFuture(e);
                }
        }
    }

    /** Delivers the answers held in DEFER mode, in the order the requests were made. */
    public void deliverDeferred() {
        List<Runnable> due = List.copyOf(deferred);
        deferred.clear();
        due.forEach(Runnable::run);
    }
}
