package dev.hoplock.spring.leader;

import dev.hoplock.core.election.LeaderScope;

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
 * are kept), so that entering and leaving a call allocates nothing. Use: {@link #enter} right after the scope opens,
 * {@link #exit()} on the instance it returned after the scope is closed, on the same thread, in reverse order of
 * entering (a {@code finally} block).
 */
final class GateInterrupts {

    private static final ThreadLocal<GateInterrupts> OF_THREAD = ThreadLocal.withInitial(GateInterrupts::new);

    private LeaderScope[] scopes = new LeaderScope[4];
    private boolean[] interruptOnLoss = new boolean[4];
    private boolean[] interruptedOnEntry = new boolean[4];
    /** The number of gated calls in progress on this thread; the innermost is at {@code depth - 1}. */
    private int depth;

    private GateInterrupts() {
    }

    /** Records the interrupt flag on entry and makes this call the innermost one of the thread. */
    static GateInterrupts enter(LeaderScope scope, boolean interruptOnLoss) {
        GateInterrupts calls = OF_THREAD.get();
        calls.push(scope, interruptOnLoss, Thread.currentThread().isInterrupted());
        return calls;
    }

    /** Ends the innermost call, restoring the enclosing one, and applies the rule above; call after its scope is closed. */
    void exit() {
        int top = --depth;
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
        }
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
