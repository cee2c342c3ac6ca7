package dev.hoplock.core.ownership;

import dev.hoplock.core.backend.AsyncBackend;
import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.StoreCapabilities;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The group's store, as its members see it: the same requests, and a {@code verify()} that also refuses a store whose
 * reads may lag ({@link StoreCapabilities#requireCurrentReads(String)}). The proof of M1 to M9 assumes reads are
 * current: a member adopts the epoch it read (M2), counts the acknowledgements it read (M3) and judges another
 * member's lease by what it read (M6); a read from behind the store's acknowledged state (a deposed NATS stream leader
 * answering) is a schedule the proof does not cover.
 *
 * <p>Guarantees: the refusal is thrown from {@code verify()} as a {@link dev.hoplock.core.backend.StoreNotCapableException},
 * so the liveness elector's E0 gate refuses the store for good, reports why (the store's own detail and the fix), and
 * the membership loop, which sends nothing before that gate passed, never touches the registry. Reads, writes and
 * deletes are passed through unchanged.
 */
final class CurrentReadsRequired {

    /** Why per-key ownership needs current reads, for the refusal's message. */
    static final String WHY = "Per-key ownership acts on the membership it reads (rules M2, M3 and M6 of"
            + " OwnershipGroup), so it needs reads that see every acknowledged write; leader election and named locks"
            + " do not, and run on this store";

    private CurrentReadsRequired() {
    }

    /** {@code backend}, with current reads required at verification. */
    static Backend of(Backend backend) {
        Objects.requireNonNull(backend, "backend");
        return new Backend() {
            @Override
            public Optional<StoredObject> read(String key, Duration timeout) throws BackendException {
                return backend.read(key, timeout);
            }

            @Override
            public WriteResult write(String key, Handle expected, byte[] content, Duration timeout)
                    throws BackendException {
                return backend.write(key, expected, content, timeout);
            }

            @Override
            public DeleteResult delete(String key, Handle expected, Duration timeout) throws BackendException {
                return backend.delete(key, expected, timeout);
            }

            @Override
            public StoreCapabilities verify() throws BackendException {
                StoreCapabilities capabilities = backend.verify();
                capabilities.requireCurrentReads(WHY);
                return capabilities;
            }

            @Override
            public String describe() {
                return backend.describe();
            }

            @Override
            public String toString() {
                return backend.toString();
            }
        };
    }

    /** {@code backend}, with current reads required at verification. */
    static AsyncBackend of(AsyncBackend backend) {
        Objects.requireNonNull(backend, "backend");
        return new AsyncBackend() {
            @Override
            public CompletionStage<Optional<StoredObject>> read(String key, Duration timeout) {
                return backend.read(key, timeout);
            }

            @Override
            public CompletionStage<WriteResult> write(String key, Handle expected, byte[] content, Duration timeout) {
                return backend.write(key, expected, content, timeout);
            }

            @Override
            public CompletionStage<DeleteResult> delete(String key, Handle expected, Duration timeout) {
                return backend.delete(key, expected, timeout);
            }

            @Override
            public CompletionStage<StoreCapabilities> verify() {
                return backend.verify().thenCompose(capabilities -> {
                    try {
                        capabilities.requireCurrentReads(WHY);
                        return CompletableFuture.completedFuture(capabilities);
                    } catch (BackendException refused) {
                        return CompletableFuture.failedFuture(refused);
                    }
                });
            }

            @Override
            public String describe() {
                return backend.describe();
            }

            @Override
            public String toString() {
                return backend.toString();
            }
        };
    }
}
