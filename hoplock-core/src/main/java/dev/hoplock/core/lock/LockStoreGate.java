package dev.hoplock.core.lock;

import dev.hoplock.core.backend.AsyncBackend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.StoreCapabilities;
import dev.hoplock.core.election.Elector;
import dev.hoplock.core.election.StoreVerification;
import dev.hoplock.core.internal.lease.VerificationGate;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

/**
 * Asks the store on behalf of named locks whether E0 (campaign only on a verified store, see {@link Elector}) lets them
 * write; the verdict is the one gate's, {@link VerificationGate}, so named locks and the elector decide alike. The
 * store must honour conditional create and swap (no delete needed: a release writes an expired record) before any
 * lock is taken on it.
 *
 * <p>Guarantees: the store is asked once at a time, bounded by the request timeout, and only while the gate is
 * {@link StoreVerification#VERIFYING}: a failure to ask (unreachable, timed out, access denied) is asked again at the
 * next call; a refusal (a missing capability, or a thrown
 * {@link BackendException.Kind#CONDITIONAL_WRITES_NOT_SUPPORTED}), logged once, is final, as is a verified store.
 * Thread-safe.
 */
final class LockStoreGate {

    private final AsyncBackend backend;
    private final Duration requestTimeout;
    /** Guarded by this: E0's verdict on the store. */
    private final VerificationGate gate;
    /** Guarded by this: the verification asked last, or null before the first call. */
    private @Nullable CompletableFuture<Void> verification;

    LockStoreGate(AsyncBackend backend, Duration requestTimeout) {
        this.backend = backend;
        this.requestTimeout = requestTimeout;
        this.gate = new VerificationGate(false, new Verdicts(backend.describe()));
    }

    /** Completes once the store was shown capable, or fails with the exception that says why not. */
    synchronized CompletableFuture<Void> verified() {
        CompletableFuture<Void> current = verification;
        if (current != null && !(current.isCompletedExceptionally() && gate.verifying())) {
            return current;
        }
        CompletableFuture<StoreCapabilities> answer;
        try {
            answer = backend.verify().toCompletableFuture();
        } catch (RuntimeException e) {
            answer = CompletableFuture.failedFuture(e);
        }
        CompletableFuture<Void> asked = answer.orTimeout(requestTimeout.toNanos(), TimeUnit.NANOSECONDS)
                .handle(this::onAnswer);
        verification = asked;
        return asked;
    }

    /** E0: the gate decides; this only turns its verdict into the future's outcome. */
    private @Nullable Void onAnswer(@Nullable StoreCapabilities answered, @Nullable Throwable error) {
        Throwable failure = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        synchronized (this) {
            if (failure != null && !(failure instanceof BackendException)) {
                // Not the store's verdict (timed out, or the backend broke its contract): ask again next time.
                throw new CompletionException(failure);
            }
            VerificationGate.Next next = gate.onAnswer(answered, (BackendException) failure);
            if (next == VerificationGate.Next.CAMPAIGN) {
                return null;
            }
            throw new CompletionException(next == VerificationGate.Next.STOP ? gate.refusal().orElseThrow() : failure);
        }
    }

    /** Where named locks' E0 verdicts go (they release by an expired record, never by a delete): a refusal is logged once. */
    private record Verdicts(String store) implements VerificationGate.Verdicts {

        private static final Logger log = LoggerFactory.getLogger(NamedLocks.class);

        @Override
        public void verified(StoreCapabilities capabilities) {
        }

        @Override
        public void refused(String reason) {
            log.error("hoplock: named locks refuse {}: {}", store, reason);
        }
    }
}
