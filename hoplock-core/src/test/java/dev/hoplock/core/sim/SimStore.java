package dev.hoplock.core.sim;

import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;

import java.util.Optional;

/**
 * The simulated store's truth: one lease object, changed atomically, one request at a time (the simulation is
 * single-threaded, so every operation is linearisable at the virtual instant it is applied). Handles are a counter,
 * so they never repeat. Every successful change is reported to the {@link Listener} (the checker) before the
 * request's answer can travel back.
 */
final class SimStore {

    /** Told of every successful change, at the instant it takes effect. */
    interface Listener {
        void written(SimProcess writer, long t0, long sharedT0, byte[] content, Handle previous, Handle handle);

        /** {@code writer} is null when the object was deleted from outside (an operator, a lifecycle rule). */
        void deleted(SimProcess writer, Handle previous);
    }

    private final Listener listener;
    private byte[] content;
    private Handle handle;
    private long versions;
    private long operations;

    SimStore(Listener listener) {
        this.listener = listener;
    }

    Optional<StoredObject> read() {
        operations++;
        return handle == null ? Optional.empty() : Optional.of(new StoredObject(content, handle));
    }

    WriteResult write(SimProcess writer, long t0, long sharedT0, Handle expected, byte[] bytes) {
        operations++;
        if (expected.isNone()) {
            if (handle != null) {
                return new WriteResult.Refused(WriteResult.Refusal.PRECONDITION_FAILED);
            }
        } else if (handle == null) {
            return new WriteResult.Refused(WriteResult.Refusal.NOT_FOUND);
        } else if (!handle.equals(expected)) {
            return new WriteResult.Refused(WriteResult.Refusal.PRECONDITION_FAILED);
        }
        Handle previous = handle;
        content = bytes.clone();
        handle = Handle.of("e" + ++versions);
        listener.written(writer, t0, sharedT0, content, previous, handle);
        return new WriteResult.Written(handle);
    }

    DeleteResult delete(SimProcess writer, Handle expected) {
        operations++;
        if (handle == null) {
            return DeleteResult.NOT_FOUND;
        }
        if (!handle.equals(expected)) {
            return DeleteResult.PRECONDITION_FAILED;
        }
        Handle previous = handle;
        handle = null;
        content = null;
        listener.deleted(writer, previous);
        return DeleteResult.DELETED;
    }

    /** Deletes the object unconditionally, as an operator or a bucket lifecycle rule would; false if there was none. */
    boolean deleteFromOutside() {
        operations++;
        if (handle == null) {
            return false;
        }
        Handle previous = handle;
        handle = null;
        content = null;
        listener.deleted(null, previous);
        return true;
    }

    /** The current bytes, or null when there is no object. */
    byte[] content() {
        return content;
    }

    Handle handle() {
        return handle;
    }

    long operations() {
        return operations;
    }
}
