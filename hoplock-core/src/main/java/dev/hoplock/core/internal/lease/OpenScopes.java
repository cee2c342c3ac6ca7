package dev.hoplock.core.internal.lease;

import org.jspecify.annotations.Nullable;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The scopes open in one {@link Term}, without a lock: a stack threaded through the {@link Scope}s themselves, whose
 * head is swapped for a terminal mark ({@link #LOST}) when the term ends. Opening a scope is one compare-and-set on the
 * head; closing the scope on top (the usual case: a thread's call closes before anyone opens above it) is one more,
 * which takes it off; nothing else is allocated or locked per scope (the {@code @LeaderOnly} gate opens one per call).
 * The bookkeeping that the loss needs is paid at the loss, by {@link #loseAll(List)}.
 *
 * <p>Guarantees (each follows from one atomic step on the head or on a scope's state, named in brackets):
 * <ul>
 *   <li>A scope that {@link #add} listed is either taken off the stack before the end swapped the head
 *       (then {@link #loseAll(List)} never sees it), or it is in the stack the end took [the head's total order]; a
 *       scope offered after the end is refused, so a scope opened concurrently with the end of its term is either told
 *       of the loss or refused, never both and never neither.</li>
 *   <li>A scope closed is never told afterwards: in the stack the end took, the end and the close race for the scope's
 *       state ({@code OPEN} to {@code TELLING}, or {@code OPEN} to {@code CLOSED}); the end tells only a scope it won,
 *       and a close that lost waits, before it returns, until the telling is over (the thread is interrupted before
 *       its close returns, never after).</li>
 *   <li>The term is drained (every scope told has closed) when the last of them closes, or at the end when none was
 *       told: a count of the scopes told, plus one held by the end while it walks the stack, reaches zero once.</li>
 *   <li>Scopes closed beneath an open one (closed out of order by several threads) stay in the stack, marked closed,
 *       until the scopes above them have closed: every close takes closed scopes off the top, so the stack holds no
 *       more than the scopes open and those closed while a scope above them was open.</li>
 * </ul>
 * The scopes with a loss callback are handed back by {@link #loseAll(List)}, so that their callbacks run after every
 * scope was told.
 */
final class OpenScopes {

    /** The head once the term has ended: nothing is pushed on it. */
    private static final Scope LOST = Scope.mark();

    private static final VarHandle HEAD;
    private static final VarHandle STATE;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            HEAD = lookup.findVarHandle(OpenScopes.class, "head", Scope.class);
            STATE = MethodHandles.privateLookupIn(Scope.class, lookup).findVarHandle(Scope.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The top of the stack of scopes (null: none), or {@link #LOST}. */
    @SuppressWarnings("unused") // through HEAD
    private volatile @Nullable Scope head;
    /** The stack the end took, for {@link #size()}; null before the end. */
    private volatile @Nullable Scope taken;
    /** The scopes told and not yet closed, plus one while the end walks the stack. */
    private final AtomicInteger told = new AtomicInteger(1);

    /** Lists {@code scope}; false (and not listed) once {@link #loseAll(List)} has run. */
    boolean add(Scope scope) {
        Scope top = head;
        while (top != LOST) {
            scope.next = top;
            if (HEAD.compareAndSet(this, top, scope)) {
                return true;
            }
            top = head;
        }
        return false;
    }

    /**
     * Unlists {@code scope} (idempotent); when the end has told it, returns only once the telling is over.
     *
     * @return whether every scope told is now closed: the term is drained
     */
    boolean remove(Scope scope) {
        if (HEAD.compareAndSet(this, scope, scope.next)) {
            // Was on top, taken off before any end: no end ever sees it. Its state stays OPEN, unreachable.
            dropClosedOnTop();
            return false;
        }
        if (STATE.compareAndSet(scope, Scope.OPEN, Scope.CLOSED)) {
            // Beneath another scope, or in the stack the end took: the end skips it from now on.
            dropClosedOnTop();
            return false;
        }
        int state;
        while ((state = scope.state) == Scope.TELLING) {
            Thread.onSpinWait();
            Thread.yield();
        }
        // TOLD: closed once after the loss counts once; CLOSED / TOLD_CLOSED: closed before.
        return state == Scope.TOLD && STATE.compareAndSet(scope, Scope.TOLD, Scope.TOLD_CLOSED)
                && told.decrementAndGet() == 0;
    }

    /** Takes closed scopes off the top, so that a long term keeps no closed scope but those beneath an open one. */
    private void dropClosedOnTop() {
        Scope top = head;
        while (top != null && top != LOST && top.state == Scope.CLOSED) {
            HEAD.compareAndSet(this, top, top.next);
            top = head;
        }
    }

    /** The number of scopes open now: not closed, and before the end listed, after it told. For diagnostics. */
    int size() {
        Scope top = taken;
        boolean ended = top != null;
        if (!ended) {
            top = head;
        }
        int open = 0;
        for (Scope scope = top; scope != null && scope != LOST; scope = scope.next) {
            int state = scope.state;
            if (ended ? state == Scope.TELLING || state == Scope.TOLD : state == Scope.OPEN) {
                open++;
            }
        }
        return open;
    }

    /** The scopes in the stack now, closed ones included (0 after the end); for tests. */
    int stacked() {
        int stacked = 0;
        for (Scope scope = head; scope != null && scope != LOST; scope = scope.next) {
            stacked++;
        }
        return stacked;
    }

    /**
     * Tells every listed scope that the term ended and refuses new ones from now on; adds to {@code withCallback} the
     * scopes that have a loss callback, for the caller to run once every scope was told. Called once.
     *
     * @return whether no scope is open: the term is drained
     */
    boolean loseAll(List<Scope> withCallback) {
        Scope top = (Scope) HEAD.getAndSet(this, LOST);
        if (top == LOST) {
            return false;
        }
        taken = top == null ? LOST : top;
        for (Scope scope = top; scope != null; scope = scope.next) {
            if (scope.state != Scope.OPEN) {
                continue;
            }
            told.incrementAndGet();
            if (STATE.compareAndSet(scope, Scope.OPEN, Scope.TELLING)) {
                scope.lose();
                scope.state = Scope.TOLD;
                if (scope.hasLossCallback()) {
                    withCallback.add(scope);
                }
            } else {
                told.decrementAndGet();
            }
        }
        return told.decrementAndGet() == 0;
    }
}
