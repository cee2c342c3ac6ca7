package dev.hoplock.core.backend;

import org.jspecify.annotations.Nullable;

import java.util.Objects;

/**
 * A backend request that did not produce an answer from the store about the lease (the store could not be
 * reached, refused the credentials, lacks the bucket, timed out, ...).
 *
 * <p>Guarantees: the message names the cause and, where there is one, the fix, and never contains secrets. For a
 * write, an exception means the outcome is <em>unknown</em>: the write may or may not have taken effect. A refusal
 * of a condition is never reported as an exception; it is a {@link WriteResult.Refused} or a {@link DeleteResult}.
 */
public class BackendException extends Exception {

    private static final long serialVersionUID = 1L;

    /** Broad classes of failure, so that callers can decide to retry or to report a configuration error. */
    public enum Kind {
        /** A passing fault: timeout, throttling, a 5xx answer, a reset connection. Retrying may help. */
        TRANSIENT(true),
        /** The store could not be reached at all (DNS, connection refused). Retrying may help. */
        UNREACHABLE(true),
        /** The credentials are missing, wrong or lack a permission. Retrying does not help. */
        ACCESS_DENIED(false),
        /** The container (bucket, directory) does not exist. Retrying does not help. */
        MISSING_CONTAINER(false),
        /**
         * The store does not honour conditional writes, so it cannot guarantee a single leader; also the kind of every
         * {@link StoreNotCapableException} (a store lacking what its consumer needs, such as current reads for per-key
         * ownership). Final: only a change of store or deployment helps.
         */
        CONDITIONAL_WRITES_NOT_SUPPORTED(false),
        /** Anything else that needs a change of configuration. */
        MISCONFIGURED(false);

        private final boolean retryable;

        Kind(boolean retryable) {
            this.retryable = retryable;
        }

        public boolean retryable() {
            return retryable;
        }
    }

    private final Kind kind;

    public BackendException(Kind kind, String message) {
        this(kind, message, null);
    }

    public BackendException(Kind kind, String message, @Nullable Throwable cause) {
        super(Objects.requireNonNull(message, "message"), cause);
        this.kind = Objects.requireNonNull(kind, "kind");
    }

    /** What sort of failure this is. */
    public Kind kind() {
        return kind;
    }

    /** True when the same request may succeed later without a change of configuration. */
    public boolean isRetryable() {
        return kind.retryable();
    }
}
