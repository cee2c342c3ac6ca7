package dev.hoplock.spring.internal.gate;

import org.jspecify.annotations.Nullable;

import java.util.Objects;
import java.util.Optional;

/**
 * What a gate makes current on the calling thread while a gated call runs (the lease of a {@code @LeaderOnly} call,
 * the lock of a {@code @WithLock} call), behind the public holders {@code LeaderContextHolder} and
 * {@code LockContextHolder}.
 *
 * <p>A per-thread stack whose frames the gate keeps on its own call stack: {@link #enter} makes a value current and
 * returns the one below it, which the gate hands back to {@link #restore} when the call ends, so nested calls restore
 * the outer value, and entering and leaving allocate nothing (the thread's entry is kept, never removed). Enter and
 * restore on the same thread, in reverse order of entering, in a {@code finally} block.
 *
 * <p>Guarantees: inside a gated call, {@link #current()} is the value of the innermost such call on this thread;
 * outside (and on other threads, including threads the call starts) it is empty.
 *
 * @param <T> what a gated call makes current
 */
public final class GateContext<T> {

    private final ThreadLocal<@Nullable T> current = new ThreadLocal<>();
    private final String outside;

    /**
     * @param annotation the gate's annotation, for example {@code "@LeaderOnly"}
     * @param holder     the public holder that reads this context, for example {@code "LeaderContextHolder"}
     */
    public GateContext(String annotation, String holder) {
        this.outside = "no " + Objects.requireNonNull(annotation, "annotation") + " call is running on this thread: "
                + Objects.requireNonNull(holder, "holder") + " is set only inside a call through a " + annotation
                + " method of a Spring bean";
    }

    /** The value of the innermost gated call on this thread, or null outside one. Allocates nothing. */
    public @Nullable T get() {
        return current.get();
    }

    /** The value of the innermost gated call on this thread, if any. */
    public Optional<T> current() {
        return Optional.ofNullable(current.get());
    }

    /**
     * The value of the innermost gated call on this thread.
     *
     * @throws IllegalStateException outside a gated call, naming the annotation and the holder
     */
    public T require() {
        T value = current.get();
        if (value == null) {
            throw new IllegalStateException(outside);
        }
        return value;
    }

    /** Makes {@code value} current and returns the value it replaces (none: null), for {@link #restore}. */
    public @Nullable T enter(T value) {
        T previous = current.get();
        current.set(value);
        return previous;
    }

    /** Makes {@code previous}, as returned by {@link #enter}, current again (none: null). */
    public void restore(@Nullable T previous) {
        // set(null) rather than remove(): the thread's entry is kept, so the next call does not allocate a new one.
        current.set(previous);
    }
}
