package dev.hoplock.spring.lock;

import org.jspecify.annotations.Nullable;

import java.time.Duration;

/**
 * How one {@code @WithLock} method is gated, as resolved from its annotation.
 *
 * @param name            the lock name template; null when it is invalid ({@code problem} says why)
 * @param atMostFor       the lock's TTL
 * @param atLeastFor      the minimum hold (zero: none)
 * @param whenHeld        SKIP or THROW (never DEFAULT: the property's value is already applied)
 * @param interruptOnLoss whether the calling thread is interrupted when the lock ends during the call
 * @param origin          where the gate comes from, for messages
 * @param problem         why the annotation cannot work (reported at start-up), or null
 * @param fairTurn        the fair mode's turn window (L7; zero: the default mode, no fairness promised); the
 *                        property's value is already applied
 */
public record WithLockAttribute(@Nullable LockNameTemplate name, Duration atMostFor, Duration atLeastFor,
        WhenLockHeld whenHeld, boolean interruptOnLoss, String origin, @Nullable String problem, Duration fairTurn) {

    /** As before the fair mode: no turn window. */
    public WithLockAttribute(@Nullable LockNameTemplate name, Duration atMostFor, Duration atLeastFor,
            WhenLockHeld whenHeld, boolean interruptOnLoss, String origin, @Nullable String problem) {
        this(name, atMostFor, atLeastFor, whenHeld, interruptOnLoss, origin, problem, Duration.ZERO);
    }

    /** The name as written in the annotation. */
    public String nameText() {
        return name == null ? "" : name.text();
    }
}
