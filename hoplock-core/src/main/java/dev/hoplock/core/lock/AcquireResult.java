package dev.hoplock.core.lock;

import dev.hoplock.core.backend.BackendException;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/** The answer to an attempt to take a named lock. */
public sealed interface AcquireResult {

    /** The lock's name. */
    String name();

    /** True for {@link Acquired}. */
    default boolean acquired() {
        return this instanceof Acquired;
    }

    /**
     * The lock is this instance's.
     *
     * @param handle   the acquisition: fencing token, local deadline, release, keep-alive
     * @param extended true when this instance already held the lock and the call extended it (same handle and token)
     */
    record Acquired(LockHandle handle, boolean extended) implements AcquireResult {
        public Acquired {
            Objects.requireNonNull(handle, "handle");
        }

        @Override
        public String name() {
            return handle.name();
        }
    }

    /**
     * Another owner holds the lock (or may still: a corrupt record, or a record that disappeared while held).
     *
     * @param name       the lock's name
     * @param holder     the holder's owner id as its record says; empty when the record is corrupt or gone
     * @param expiresAt  when the holder's record says it expires, by the holder's clock; null when unknown
     * @param token      the holder's fencing token (generation); 0 when unknown
     * @param retryAfter when this instance may look again with a chance to take it (a hint, never a promise)
     */
    record HeldByAnother(String name, String holder, @Nullable Instant expiresAt, long token, Duration retryAfter)
            implements AcquireResult {
        public HeldByAnother {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(holder, "holder");
            Objects.requireNonNull(retryAfter, "retryAfter");
        }
    }

    /**
     * The store gave no usable answer (unreachable, timed out, access denied...): the lock was not taken. A write whose
     * outcome is unknown is remembered and adopted by a later attempt only if a read proves it was ours.
     *
     * @param name  the lock's name
     * @param cause what went wrong (its message names the cause and, where there is one, the fix)
     */
    record Unavailable(String name, BackendException cause) implements AcquireResult {
        public Unavailable {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(cause, "cause");
        }
    }
}
