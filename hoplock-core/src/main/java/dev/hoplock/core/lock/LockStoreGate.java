package dev.hoplock.core.lock;

import dev.hoplock.core.backend.AsyncBackend;
import dev.hoplock.core.backend.StoreNotCapableException;
import dev.hoplock.core.election.Elector;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

/**
 * Rule 0 of the {@link Elector}'s safety argument for named locks: the store is shown to honour conditional create and
 * swap ({@link dev.hoplock.core.backend.StoreCapabilities#requireFor(boolean)}, no delete needed: a release writes an
 * expired record) before any lock is taken on it.
 *
 * <p>Guarantees: the store is asked once, bounded by the request timeout; a failure to ask (unreachable, timed out) is
 * asked again at the next call, a refusal ({@link StoreNotCapableException}, logged once) is final. Thread-safe.
 */
final class LockStoreGate {

    private static final Logger log = LoggerFactory.getLogger(NamedLocks.class);

    private final AsyncBackend backend;
    private final Duration requestTimeout;
    /** Guarded by this: the verification asked last, or null before the first call. */
    private @Nullable CompletableFuture<Void> verification;

    LockStoreGate(AsyncBackend backend, Duration requestTimeout) {
        this.backend = backend;
        this.requestTimeout = requestTimeout;
    }

    /** Completes once the store was shown capable, or fails with the exception that says why not. */
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
                        } catch (StoreNotCapableException e) {
                            log.error("hoplock: named locks refuse {}: {}", backend.describe(), e.getMessage());
                            throw new CompletionException(e);
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
        } catch (CompletionException e) {
            return e.getCause() instanceof StoreNotCapableException;
        } catch (CancellationException e) {
            return false;
        }
    }
}
