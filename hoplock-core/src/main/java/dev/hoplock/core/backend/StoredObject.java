package dev.hoplock.core.backend;

import java.util.Arrays;
import java.util.Objects;

/**
 * The bytes stored under a lease key together with the handle that identifies exactly this version.
 *
 * <p>Guarantees: {@link #handle()} is never {@link Handle#NONE}; {@link #content()} returns a copy, so callers
 * cannot change what a backend holds.
 */
public final class StoredObject {

    private final byte[] content;
    private final Handle handle;

    public StoredObject(byte[] content, Handle handle) {
        this.content = Objects.requireNonNull(content, "content").clone();
        this.handle = Objects.requireNonNull(handle, "handle");
        if (handle.isNone()) {
            throw new IllegalArgumentException("a stored object must have a real handle, not Handle.NONE");
        }
    }

    /** The stored bytes (a copy). */
    public byte[] content() {
        return content.clone();
    }

    /** The number of stored bytes. */
    public int size() {
        return content.length;
    }

    /** The version token of these bytes. */
    public Handle handle() {
        return handle;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StoredObject other && handle.equals(other.handle) && Arrays.equals(content, other.content);
    }

    @Override
    public int hashCode() {
        return 31 * handle.hashCode() + Arrays.hashCode(content);
    }

    @Override
    public String toString() {
        return "StoredObject[" + content.length + " bytes, " + handle + "]";
    }
}
