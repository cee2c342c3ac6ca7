package dev.hoplock.spring.leader;

import dev.hoplock.core.election.LeaderContext;
import dev.hoplock.core.Lease;
import org.jspecify.annotations.Nullable;

import java.util.Optional;

/**
 * The leader context of the {@link LeaderOnly} call running on the current thread, for example to stamp downstream
 * writes with the lease's generation (the fencing token):
 *
 * <pre>{@code
 * @LeaderOnly
 * public void publish() {
 *     long token = LeaderContextHolder.currentLease().orElseThrow().generation();
 *     repository.saveIfNewer(report, token);
 * }
 * }</pre>
 *
 * <p>Guarantees: inside a {@code @LeaderOnly} call, {@link #current()} returns the context of the innermost such call
 * on this thread (for {@code @LeaderOnly(key = ...)}, the key's {@code OwnershipScope}); outside (and on other threads,
 * including threads the call starts) it is empty. Nested calls restore the outer context when they end. Reading it
 * makes no request to the store. The context is kept per thread with the gate's own bookkeeping of the thread's calls
 * ({@code GateInterrupts}), so that a gated call looks the thread up once.
 */
public final class LeaderContextHolder {

    private static final String OUTSIDE = "no @LeaderOnly call is running on this thread: LeaderContextHolder is set"
            + " only inside a call through a @LeaderOnly method of a Spring bean";

    private LeaderContextHolder() {
    }

    /** The context of the innermost {@code @LeaderOnly} call on this thread, if any. */
    public static Optional<LeaderContext> current() {
        return Optional.ofNullable(GateInterrupts.currentContext());
    }

    /** The lease of the innermost {@code @LeaderOnly} call on this thread, if any. */
    public static Optional<Lease> currentLease() {
        return current().map(LeaderContext::lease);
    }

    /**
     * The context of the innermost {@code @LeaderOnly} call on this thread.
     *
     * @throws IllegalStateException outside a {@code @LeaderOnly} call
     */
    public static LeaderContext require() {
        LeaderContext context = GateInterrupts.currentContext();
        if (context == null) {
            throw new IllegalStateException(OUTSIDE);
        }
        return context;
    }

    /**
     * Makes {@code context} current and returns the context it replaces, to be handed to {@link #restore} when the
     * call ends (for the gate; rarely needed elsewhere). Enter and restore in reverse order, on the same thread, in a
     * {@code finally} block. Allocates nothing.
     */
    public static @Nullable LeaderContext enter(LeaderContext context) {
        return GateInterrupts.ofThread().replaceContext(java.util.Objects.requireNonNull(context, "context"));
    }

    /** Makes {@code previous}, as returned by {@link #enter}, current again (none: null). */
    public static void restore(@Nullable LeaderContext previous) {
        GateInterrupts.ofThread().replaceContext(previous);
    }
}
