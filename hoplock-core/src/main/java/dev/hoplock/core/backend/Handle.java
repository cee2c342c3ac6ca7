package dev.hoplock.core.backend;

import java.util.Objects;

/**
 * An opaque version token for a stored lease object (an S3 ETag, a file's content hash, a counter).
 *
 * <p>Guarantees: a handle is compared only for equality and is sent back to the backend exactly as it was
 * received. {@link #NONE} stands for "no object": a write that expects {@code NONE} succeeds only if the key does
 * not exist. Two different writes of a key never yield equal handles as long as their contents differ, which the
 * elector ensures (every record carries a fresh nonce).
 *
 * @param value the token as the store gave it; empty only for {@link #NONE}
 */
public record Handle(String value) {

    /** The handle that means "the key must not exist". */
    public static final Handle NONE = new Handle("");

    public Handle {
        Objects.requireNonNull(value, "value");
    }

    /** Creates a handle for a token that a store returned; the token must not be empty. */
    public static Handle of(String value) {
        Objects.requireNonNull(value, "value");
        if (value.isEmpty()) {
            throw new IllegalArgumentException("a store handle must not be empty; use Handle.NONE for 'no object'");
        }
        return new Handle(value);
    }

    /** True for {@link #NONE}. */
    public boolean isNone() {
        return value.isEmpty();
    }

    @Override
    public String toString() {
        return isNone() ? "Handle[none]" : "Handle[" + value + "]";
    }
}
