package dev.hoplock.core.internal.lease;

import org.jspecify.annotations.Nullable;

import java.util.List;

/**
 * The scopes open in one {@link Term}: a list threaded through the {@link Scope}s themselves, so that opening and
 * closing a scope allocates nothing beyond the scope (the {@code @LeaderOnly} gate opens one per call) and takes one
 * uncontended lock each.
 *
 * <p>Guarantees (one lock orders every operation): once {@link #loseAll(List)} has run, {@link #add} refuses, so a scope
 * opened concurrently with the end of its term is either told of the loss or refused, never both; a scope removed by
 * {@link #remove} is never told afterwards, so its thread is never interrupted after it closed. The scopes with a loss
 * callback are handed back by {@link #loseAll(List)}, so that their callbacks run after this lock is released.
 */
final class OpenScopes {

    private @Nullable Scope head;
    private boolean lost;
    private int size;

    /** Lists {@code scope}; false (and not listed) once {@link #loseAll(List)} has run. */
    synchronized boolean add(Scope scope) {
        if (lost) {
            return false;
        }
        scope.next = head;
        scope.previous = null;
        if (head != null) {
            head.previous = scope;
        }
        head = scope;
        scope.listed = true;
        size++;
        return true;
    }

    /**
     * Unlists {@code scope} (idempotent).
     *
     * @return whether every scope is now closed after {@link #loseAll(List)}: the term is drained
     */
    synchronized boolean remove(Scope scope) {
        if (scope.listed) {
            scope.listed = false;
            size--;
            if (scope.previous == null) {
                head = scope.next;
            } else {
                scope.previous.next = scope.next;
            }
            if (scope.next != null) {
                scope.next.previous = scope.previous;
            }
            scope.previous = null;
            scope.next = null;
        }
        return lost && head == null;
    }

    /** The number of scopes listed now. */
    synchronized int size() {
        return size;
    }

    /**
     * Tells every listed scope that the term ended and refuses new ones from now on; adds to {@code withCallback} the
     * scopes that have a loss callback, for the caller to run once this lock is released.
     *
     * @return whether no scope is open: the term is drained
     */
    synchronized boolean loseAll(List<Scope> withCallback) {
        lost = true;
        for (Scope scope = head; scope != null; scope = scope.next) {
            scope.lose();
            if (scope.hasLossCallback()) {
                withCallback.add(scope);
            }
        }
        return head == null;
    }
}
