package dev.hoplock.core.sim;

import org.jspecify.annotations.Nullable;

/**
 * Counts the tasks of one schedule, so that a busy loop in virtual time (which would never let the clock advance) is
 * reported as a violation instead of hanging the build. Shared by the elector and the lock simulation.
 */
final class BusyLoopGuard {

    private static final int MAX_TASKS_PER_INSTANT = 10_000;
    private static final int MAX_TASKS = 2_000_000;

    private long instant = -1;
    private long tasksAtInstant;
    private long tasks;

    /** Counts one task run at shared time {@code now}; returns what is wrong, or null while the counts are fine. */
    @Nullable String taskRan(long now) {
        if (now != instant) {
            instant = now;
            tasksAtInstant = 0;
        }
        if (++tasksAtInstant > MAX_TASKS_PER_INSTANT) {
            return "livelock: more than " + MAX_TASKS_PER_INSTANT + " tasks at one virtual instant";
        }
        if (++tasks > MAX_TASKS) {
            return "more than " + MAX_TASKS + " tasks in one schedule (a busy loop?)";
        }
        return null;
    }
}
