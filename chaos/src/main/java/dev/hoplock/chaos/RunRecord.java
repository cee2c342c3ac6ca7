package dev.hoplock.chaos;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * What a chaos run records for its report, in the order it happened: the scenario log (printed as it is written), how
 * often each fault was injected, the times measured per kind of takeover, the failures (any one makes the run FAIL),
 * and why the run stopped early if it did. Used by the orchestrator's one thread only.
 */
final class RunRecord {

    private final List<String> scenarioLog = new ArrayList<>();
    private final List<String> failures = new ArrayList<>();
    private final Map<String, List<Long>> timings = new LinkedHashMap<>();
    private final Map<String, Integer> faults = new TreeMap<>();
    private @Nullable String incomplete;

    /** Prints one line of the scenario log and keeps it for the report. */
    void say(String line) {
        System.out.println(line);
        scenarioLog.add(line);
    }

    /** Counts one injection of {@code fault}. */
    void count(String fault) {
        faults.merge(fault, 1, Integer::sum);
    }

    /** Records one time, in nanoseconds, under {@code name}. */
    void time(String name, long nanos) {
        timings.computeIfAbsent(name, k -> new ArrayList<>()).add(nanos);
    }

    /** Records a failure: the run's result is FAIL. */
    void fail(String failure) {
        failures.add(failure);
    }

    /** Records that the run stopped early, and why: without a failure its result is INCOMPLETE. */
    void incomplete(String why) {
        incomplete = why;
    }

    /** Why the run stopped early; null if it did not. */
    @Nullable String incomplete() {
        return incomplete;
    }

    List<String> scenarioLog() {
        return Collections.unmodifiableList(scenarioLog);
    }

    List<String> failures() {
        return Collections.unmodifiableList(failures);
    }

    /** The times by name, in the order the names were first recorded. */
    Map<String, List<Long>> timings() {
        return Collections.unmodifiableMap(timings);
    }

    /** The faults by name, sorted, with how often each was injected. */
    Map<String, Integer> faults() {
        return Collections.unmodifiableMap(faults);
    }
}
