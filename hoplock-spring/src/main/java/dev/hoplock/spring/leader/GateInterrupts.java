package dev.hoplock.spring.leader;

import dev.hoplock.core.election.LeaderContext;
import dev.hoplock.core.election.LeaderScope;
import org.jspecify.annotations.Nullable;

import java.util.Arrays;

/**
 * The one rule for the interrupt a {@code @LeaderOnly} scope delivers when its term ends: the gate clears the
 * interrupt flag after the call only when
 * <ul>
 *   <li>this call's scope delivered an interrupt (it asked for one and its term ended while it was open), and</li>
 *   <li>the flag was clear when the call entered (an interrupt the caller already had, for example from
 *       {@code ExecutorService.shutdownNow()}, is left standing),</li>
 * </ul>
 * and it sets the flag again when an enclosing {@code @LeaderOnly} call on the same thread has had its own interrupt
 * delivered, so that a nested call never swallows the interrupt meant for the outer one (the flag is one bit shared
 * by both).
 *
 * <p>Limit: the flag cannot tell interrupts apart. An interrupt from elsewhere that arrives during a call whose scope
 * also delivered one is cleared with it; and a scope opened outside the gate (by {@code Elector.lead} or
 * {@code Elector.enterLeaderScope} directly) is not seen as enclosing.
 *
 * <p>One instance per thread holds the thread's gated calls as a stack (arrays that grow with the nesting depth and
 * are kept), so that entering and leaving a call allocates nothing, and the thread's current {@link LeaderContext},
 * which {@link LeaderContextHolder} reads and which a gated call makes its scope from {@link #enter} to
 * {@link #exit()}: so a gated call makes one thread-local lookup. Use: {@link #enter} right after the scope opens,
 * {@link #exit()} on the instance it returned after the scope is closed, on the same thread, in reverse order of
 * entering (a {@code finally} block).
 */
final class GateInterrupts {

    /** Set at the thread's first gated call or {@link LeaderContextHolder#enter}, then kept. */
    private static final ThreadLocal<@Nullable GateInterrupts> OF_THREAD = new ThreadLocal<>();

    /** The thread's current leader context (null: none), for {@link LeaderContextHolder}. */
    private @Nullable LeaderContext current;
    /** The context each call replaced, restored when it exits. */
    private @Nullable LeaderContext[] replaced = new LeaderContext[4];
    private LeaderScope[] scopes = new LeaderScope[4];
    private boolean[] interruptOnLoss = new boolean[4];
    private boolean[] interruptedOnEntry = new boolean[4];
    /** The number of gated calls in progress on this thread; the innermost is at {@code depth - 1}. */
    private int depth;

    private GateInterrupts() {
    }

    /**
     * Records the interrupt flag on entry and makes this call the innermost one of the thread, and {@code scope} the
     * thread's current context.
     */
    static GateInterrupts enter(LeaderScope scope, boolean interruptOnLoss) {
        GateInterrupts calls = ofThread();
        calls.push(scope, interruptOnLoss, Thread.currentThread().isInterrupted());
        return calls;
    }

    /** The calls of this thread, created at its first need. */
    static GateInterrupts ofThread() {
        GateInterrupts calls = OF_THREAD.get();
        if (calls == null) {
            calls = new GateInterrupts();
            OF_THREAD.set(calls);
        }
        return calls;
    }

    /** The current leader context of this thread, or null; creates nothing. */
    static @Nullable LeaderContext currentContext() {
        GateInterrupts calls = OF_THREAD.get();
        return calls == null ? null : calls.current;
    }

    /** Makes {@code context} this thread's current one (null: none) and returns the one it replaces. */
    @Nullable LeaderContext replaceContext(@Nullable LeaderContext context) {
        LeaderContext previous = current;
        current = context;
        return previous;
    }

    /**
     * Ends the innermost call, restoring the enclosing one and the context it replaced, and applies the rule above;
     * call after its scope is closed.
     */
    void exit() {
        int top = --depth;
        current = replaced[top];
        replaced[top] = null;
        boolean delivered = delivered(top);
        boolean hadInterrupt = interruptedOnEntry[top];
        scopes[top] = null;
        if (hadInterrupt || !delivered) {
            return;
        }
        Thread.interrupted();
        // Cleared first, checked second: an enclosing scope that delivers in between interrupts the thread itself.
        for (int call = top - 1; call >= 0; call--) {
            if (delivered(call)) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private void push(LeaderScope scope, boolean asked, boolean interrupted) {
        if (depth == scopes.length) {
            scopes = Arrays.copyOf(scopes, depth * 2);
            interruptOnLoss = Arrays.copyOf(interruptOnLoss, depth * 2);
            interruptedOnEntry = Arrays.copyOf(interruptedOnEntry, depth * 2);
            replaced = Arrays.copyOf(replaced, depth * 2);
        }
        replaced[depth] = current;
        current = scope;
        scopes[depth] = scope;
        interruptOnLoss[depth] = asked;
        interruptedOnEntry[depth] = interrupted;
        depth++;
    }

    /** Whether the scope of call {@code index} interrupted the thread (a scope does exactly when lost and asked to). */
    private boolean delivered(int index) {
        return interruptOnLoss[index] && scopes[index].wasLost();
    }
}
