package dev.hoplock.spring.lock;

import dev.hoplock.core.lock.LockHandle;
import dev.hoplock.spring.internal.gate.GateContext;
import org.jspecify.annotations.Nullable;

import java.util.Optional;
import java.util.OptionalLong;

/**
 * The lock of the {@code @WithLock} call running on the current thread, for example to stamp downstream writes with
 * its fencing token:
 *
 * <pre>{@code
 * @WithLock(name = "export", lockAtMostFor = "5m")
 * public void export() {
 *     long token = LockContextHolder.currentToken().orElseThrow();
 *     repository.saveIfNewer(batch, token);
 * }
 * }</pre>
 *
 * <p>Guarantees: inside a {@code @WithLock} call, {@link #current()} returns the lock of the innermost such call on
 * this thread; outside (and on other threads, including threads the call starts) it is empty. Nested calls restore
 * the outer lock when they end. Reading it makes no request to the store. The sibling of
 * {@code LeaderContextHolder}, which holds the lease of {@code @LeaderOnly} calls; both are a
 * {@link GateContext}.
 */
public final class LockContextHolder {

    private static final GateContext<LockHandle> CONTEXT = new GateContext<>("@WithLock", "LockContextHolder");

    private LockContextHolder() {
    }

    /** The lock of the innermost {@code @WithLock} call on this thread, if any. */
    public static Optional<LockHandle> current() {
        return CONTEXT.current();
    }

    /** The fencing token of the innermost {@code @WithLock} call on this thread, if any. */
    public static OptionalLong currentToken() {
        LockHandle lock = CONTEXT.get();
        return lock == null ? OptionalLong.empty() : OptionalLong.of(lock.token());
    }

    /**
     * The lock of the innermost {@code @WithLock} call on this thread.
     *
     * @throws IllegalStateException outside a {@code @WithLock} call
     */
    public static LockHandle require() {
        return CONTEXT.require();
    }

    /**
     * Makes {@code lock} current and returns the lock it replaces, to be handed to {@link #restore} when the call
     * ends (for the interceptor). Enter and restore in reverse order, on the same thread, in a {@code finally} block.
     */
    public static @Nullable LockHandle enter(LockHandle lock) {
        return CONTEXT.enter(lock);
    }

    /** Makes {@code previous}, as returned by {@link #enter}, current again (none: null). */
    public static void restore(@Nullable LockHandle previous) {
        CONTEXT.restore(previous);
    }
}
