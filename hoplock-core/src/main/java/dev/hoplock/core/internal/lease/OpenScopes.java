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
 *   <li>A scope closed beneath an open one (closed out of order: calls of several threads overlap) is unlinked by its
 *       close, under this object's lock, which only such closes take (opening and closing on top stay lock-free);
 *       every close also takes closed scopes off the top. So the stack holds the scopes open, plus at most those whose
 *       close is running: overlapping calls that never let the stack empty (two threads taking turns, claims on keys
 *       that move out of order) leave nothing behind in a term that lasts for days.</li>
 * </ul>
 * The scopes with a loss callback are handed back by {@link #loseAll(List)}, so that their callbacks run after every
 * scope was told.
 */
final class OpenScopes {

    /** The head once the term has ended: nothing is pushed on it. */
    private static final Scope LOST = Scope.mark();

    private static final VarHandle HEAD;
    private static final VarHandle STATE;
    private static final VarHandle NEXT;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            HEAD = lookup.findVarHandle(OpenScopes.class, "head", Scope.class);
            MethodHandles.Lookup scopes = MethodHandles.privateLookupIn(Scope.class, lookup);
            STATE = scopes.findVarHandle(Scope.class, "state", int.class);
            NEXT = scopes.findVarHandle(Scope.class, "next", Scope.class);
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
            // A plain write: the compare-and-set on the head that publishes the scope orders it.
            NEXT.set(scope, top);
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
            unlink(scope);
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

    /**
     * Unlinks {@code closed} from beneath the scopes above it: its predecessor's link skips it. Under this object's
     * lock, so that two unlinks never undo each other; pushes and pops touch only the head and never take it. A reader
     * walking the stack without the lock (the end, a pop reading the link of the scope it takes off) reads the link
     * before or after: it skips {@code closed} or finds it closed, and reaches every scope beneath either way. If
     * {@code closed} is on top by now (the scopes above it closed), nothing is changed here: the caller's
     * {@link #dropClosedOnTop()} takes it off.
     */
    private synchronized void unlink(Scope closed) {
        Scope above = head;
        if (above == null || above == LOST) {
            return;
        }
        for (Scope beneath = above.next; beneath != null; above = beneath, beneath = beneath.next) {
            if (beneath == closed) {
                above.next = closed.next;
                return;
            }
        }
    }

    /** Takes closed scopes off the top (those whose unlink found them on top, or closed on top by an end's race). */
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
