package dev.hoplock.core.backend;

import java.time.Duration;
import java.util.Optional;

/**
 * The storage SPI: one store (a directory, a bucket plus prefix, a map) that holds any number of lease objects,
 * each under its own key, and offers three operations on them.
 *
 * <h2>Contract every implementation must keep</h2>
 * <ul>
 *   <li><b>Linearisable</b>: every operation takes effect atomically at one instant between its call and its
 *       return, and all callers, in this process or any other, observe one order of operations. A read returns the
 *       latest completed write. Of any number of concurrent writes that expect the same handle (or
 *       {@link Handle#NONE}), at most one succeeds.</li>
 *   <li><b>Conditional</b>: {@link #write} with {@link Handle#NONE} succeeds only if the key does not exist;
 *       with any other handle only if the key exists and its current handle equals it. {@link #delete} removes the
 *       object only if its handle equals the expected one.</li>
 *   <li><b>Fresh handles</b>: a successful write returns a handle for exactly the bytes it stored; writing
 *       different bytes yields a different handle.</li>
 *   <li><b>Typed refusals</b>: a failed condition is a return value ({@link WriteResult.Refused},
 *       {@link DeleteResult}), never an exception. {@link BackendException} means "no answer about the lease";
 *       for writes and deletes it means the outcome is unknown.</li>
 *   <li><b>Bounded</b>: every call should return or throw within {@code timeout}; the elector also stops waiting
 *       at that point and treats the outcome as unknown.</li>
 * </ul>
 *
 * <p>Keys are validated by {@link LeaseKeys#validate(String)}: segments of letters, digits, {@code . _ -}
 * separated by {@code /}. Implementations must be thread-safe.
 */
public interface Backend {

    /**
     * Reads the current object under {@code key}.
     *
     * <p>An object larger than {@link dev.hoplock.core.record.LeaseRecordCodec#MAX_SIZE} bytes is no lease record;
     * a backend may return only its first {@code MAX_SIZE + 1} bytes (with the object's real handle), so that a huge
     * object under a lease key costs no more memory than that. The elector treats it as a corrupt record.
     *
     * @return the bytes and their handle, or empty if there is no object under the key
     */
    Optional<StoredObject> read(String key, Duration timeout) throws BackendException;

    /**
     * Stores {@code content} under {@code key} if the current handle equals {@code expected}
     * ({@link Handle#NONE}: only if the key does not exist).
     */
    WriteResult write(String key, Handle expected, byte[] content, Duration timeout) throws BackendException;

    /** Removes the object under {@code key} if its current handle equals {@code expected}. */
    DeleteResult delete(String key, Handle expected, Duration timeout) throws BackendException;

    /**
     * Checks which conditional requests the store really honours and reports them, so that each consumer refuses
     * only what it needs ({@link StoreCapabilities#requireFor(boolean)}). Called before a consumer relies on the store
     * (an elector: before it campaigns); may be called any number of times, from any thread.
     *
     * <p>The default checks nothing and reports every capability {@link StoreCapabilities.Support#ASSUMED}: a backend
     * over a store it controls (a map, a directory, a database row) keeps the contract by construction. A backend
     * over a store that may only claim to keep it (S3-compatible servers) probes it here, once, and returns the
     * remembered report afterwards; it logs a missing capability once, when it finds it.
     *
     * @return the capabilities, never null
     * @throws BackendException when the store could not be asked (unreachable, access denied, ...); a missing
     *                          capability is reported in the result, never thrown
     */
    default StoreCapabilities verify() throws BackendException {
        return StoreCapabilities.assumed(describe());
    }

    /**
     * A short description of the store for logs and health output (for example {@code s3://bucket/prefix} or a
     * directory). Must never contain credentials.
     */
    default String describe() {
        return getClass().getSimpleName();
    }
}
