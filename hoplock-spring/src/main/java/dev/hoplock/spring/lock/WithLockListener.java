package dev.hoplock.spring.lock;

import java.lang.reflect.Method;
import java.time.Duration;

/**
 * Told about every {@code @WithLock} call: for metrics. Called on the calling thread; must be quick and must not
 * throw. Every bean of this type in the application context is told.
 */
public interface WithLockListener {

    /** Why a call did not run. */
    enum Refusal {
        /** Another owner holds the lock. */
        HELD_ELSEWHERE,
        /** A call of this instance holds it (still running, or in its minimum hold). */
        HELD_HERE,
        /** The store gave no usable answer. */
        UNAVAILABLE,
        /**
         * The application does not take part now ({@code hoplock.act-when=ready}: not ready yet, or refusing
         * traffic): no lock was asked for.
         */
        NOT_READY
    }

    /** {@code method} took {@code lock} and is about to run. */
    default void acquired(String lock, Method method) {
    }

    /** {@code method} did not run because {@code lock} could not be taken. */
    default void refused(String lock, Method method, Refusal why) {
    }

    /**
     * A call of {@code method} under {@code lock} ended.
     *
     * @param heldFor how long the lock was held: to the release, to the end of its minimum hold, or to its loss
     * @param lost    whether the lock ended before the call did (lockAtMostFor passed, or it was taken over)
     */
    default void ended(String lock, Method method, Duration heldFor, boolean lost) {
    }
}
