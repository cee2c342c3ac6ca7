package dev.hoplock.spring.leader;

import java.lang.reflect.Method;

/**
 * Told about {@code @LeaderOnly} calls that did not run because this instance does not lead (for example to count
 * them as {@code hoplock.leader-only.skipped}). Called on the caller's thread: implementations must be fast and
 * must not throw.
 */
@FunctionalInterface
public interface LeaderOnlyListener {

    /** A call of {@code method} was skipped (or refused with an exception) in {@code election}. */
    void notRun(String election, Method method);
}
