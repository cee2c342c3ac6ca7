package dev.hoplock.spring.aop;

import dev.hoplock.core.LeaderScope;
import org.jspecify.annotations.Nullable;

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
 * <p>Use: {@link #enter} right after the scope opens, {@link #exit()} after it is closed, on the same thread, in
 * reverse order of entering (a {@code finally} block).
 */
final class GateInterrupts {

    private static final ThreadLocal<GateInterrupts> INNERMOST = new ThreadLocal<>();

    private final LeaderScope scope;
    private final boolean interruptOnLoss;
    private final boolean interruptedOnEntry;
    /** The enclosing gated call on this thread, or null. */
    private final @Nullable GateInterrupts enclosing;

    private GateInterrupts(LeaderScope scope, boolean interruptOnLoss, boolean interruptedOnEntry,
            @Nullable GateInterrupts enclosing) {
        this.scope = scope;
        this.interruptOnLoss = interruptOnLoss;
        this.interruptedOnEntry = interruptedOnEntry;
        this.enclosing = enclosing;
    }

    /** Records the interrupt flag on entry and makes this call the innermost one of the thread. */
    static GateInterrupts enter(LeaderScope scope, boolean interruptOnLoss) {
        GateInterrupts entered = new GateInterrupts(scope, interruptOnLoss, Thread.currentThread().isInterrupted(),
                INNERMOST.get());
        INNERMOST.set(entered);
        return entered;
    }

    /** Restores the enclosing call and applies the rule above; call after the scope is closed. */
    void exit() {
        if (enclosing == null) {
            INNERMOST.remove();
        } else {
            INNERMOST.set(enclosing);
        }
        if (interruptedOnEntry || !delivered()) {
            return;
        }
        Thread.interrupted();
        // Cleared first, checked second: an enclosing scope that delivers in between interrupts the thread itself.
        if (enclosing != null && enclosing.deliveredHereOrAround()) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether this call's scope interrupted the thread (a scope interrupts exactly when it is lost and asked to). */
    private boolean delivered() {
        return interruptOnLoss && scope.wasLost();
    }

    private boolean deliveredHereOrAround() {
        for (GateInterrupts call = this; call != null; call = call.enclosing) {
            if (call.delivered()) {
                return true;
            }
        }
        return false;
    }
}
