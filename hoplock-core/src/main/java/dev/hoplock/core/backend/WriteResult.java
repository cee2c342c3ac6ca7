package dev.hoplock.core.backend;

import java.util.Objects;

/**
 * The outcome of a compare-and-swap write: either the new version's handle, or a typed refusal that callers
 * handle without parsing exception messages.
 */
public sealed interface WriteResult permits WriteResult.Written, WriteResult.Refused {

    /** The write took effect; {@code handle} identifies the version now stored. */
    record Written(Handle handle) implements WriteResult {
        public Written {
            Objects.requireNonNull(handle, "handle");
            if (handle.isNone()) {
                throw new IllegalArgumentException("a successful write must return a real handle");
            }
        }
    }

    /** The write did not take effect because the stored state is not what the caller expected. */
    record Refused(Refusal reason) implements WriteResult {
        public Refused {
            Objects.requireNonNull(reason, "reason");
        }
    }

    /** Why a conditional write or delete was refused. */
    enum Refusal {
        /** The key exists and its handle differs from the expected one (or the caller expected no object). */
        PRECONDITION_FAILED,
        /** The caller expected an existing version, but the key does not exist. */
        NOT_FOUND
    }

    static WriteResult written(Handle handle) {
        return new Written(handle);
    }

    static WriteResult preconditionFailed() {
        return new Refused(Refusal.PRECONDITION_FAILED);
    }

    static WriteResult notFound() {
        return new Refused(Refusal.NOT_FOUND);
    }
}
