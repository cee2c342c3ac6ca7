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
     * A short description of the store for logs and health output (for example {@code s3://bucket/prefix} or a
     * directory). Must never contain credentials.
     */
    default String describe() {
        return getClass().getSimpleName();
    }
}
