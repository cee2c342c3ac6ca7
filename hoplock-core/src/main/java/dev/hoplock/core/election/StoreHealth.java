package dev.hoplock.core.election;

import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.time.TimeSource;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.Optional;

/**
 * What the elector knows of its store's health: the last error and when the store last answered about the lease, with
 * {@link ElectionEvent.ProblemKind#BACKEND_ERROR} problems reported once per operation and error until it answers
 * again. Shown in {@link ElectorStatus} and named when a term ends at its deadline. Not thread-safe: used under the
 * elector's lock.
 */
final class StoreHealth {

    private final String key;
    private final TimeSource time;
    private final ProblemReporter problems;
    private @Nullable String lastError;
    private @Nullable Long lastAnswerNanos;

    StoreHealth(String key, TimeSource time, ProblemReporter problems) {
        this.key = key;
        this.time = time;
        this.problems = problems;
    }

    /** The last error, or null after an answer. */
    @Nullable String lastError() {
        return lastError;
    }

    /** How long ago the store last answered a request about the lease; empty before the first answer. */
    Optional<Duration> sinceLastAnswer() {
        Long at = lastAnswerNanos;
        return at == null ? Optional.empty() : Optional.of(Duration.ofNanos(Math.max(0, time.nanoTime() - at)));
    }

    /**
     * A failed request: reported once per operation and error (numbers in the text, such as a timeout's duration, do
     * not make a new cause) until the store answers again.
     */
    void failed(String operation, BackendException failure) {
        String message = operation + " failed: " + failure.getMessage();
        lastError = message;
        problems.report(ElectionEvent.ProblemKind.BACKEND_ERROR, operation + " " + failure.kind() + " "
                + ProblemReporter.normalise(String.valueOf(failure.getMessage())), "'" + key + "' " + message);
    }

    /** The store answered about the lease: failures are reported again when they recur. */
    void answered() {
        lastAnswerNanos = time.nanoTime();
        verified();
    }

    /**
     * The store answered a verification: the last error is cleared, but this is not an answer about the lease (a
     * backend may verify without a request).
     */
    void verified() {
        lastError = null;
        problems.clear(ElectionEvent.ProblemKind.BACKEND_ERROR);
    }

    /** An unexpected exception inside the loop ({@link ProblemMessages#internalError}). */
    void internalError(String activity, RuntimeException error, String message) {
        lastError = message;
        problems.reportError(ElectionEvent.ProblemKind.BACKEND_ERROR, "internal " + activity + " "
                + error.getClass().getName(), message, error);
    }
}
