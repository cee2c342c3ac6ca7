package dev.hoplock.bench.requests;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What one instance's scheduled jobs did: for every scheduled run, its kind and the time the scheduler thread spent in
 * it ({@link TimingTaskDecorator}) minus the time spent in the job's own body. Runs are recorded only while
 * {@link #measuring} is on.
 *
 * <p>How a run is classified: the body of a job marks the thread ({@link #markBody}); a run of the gated job that left
 * no mark did not run its body (skipped by {@code @LeaderOnly}, or not locked by ShedLock).
 */
public final class JobStats {

    /** Kinds of runs. */
    public enum Kind {
        /** The gated job ran its body. */
        EXECUTED,
        /** The gated job was called but did not run its body. */
        SKIPPED,
        /** The ungated control job (same scheduler, same rate): the harness's own cost. */
        CONTROL
    }

    private static final Map<String, JobStats> INSTANCES = new ConcurrentHashMap<>();
    private static final ThreadLocal<Mark> MARK = new ThreadLocal<>();
    private static volatile boolean measuring;

    private final String instance;
    private final List<long[]> runs = new ArrayList<>();

    private JobStats(String instance) {
        this.instance = instance;
    }

    public static JobStats of(String instance) {
        return INSTANCES.computeIfAbsent(instance, JobStats::new);
    }

    public static void measuring(boolean on) {
        measuring = on;
    }

    public String instance() {
        return instance;
    }

    /** Called by a job's body with the time its work took. */
    static void markBody(Kind kind, long bodyNanos) {
        MARK.set(new Mark(kind, bodyNanos));
    }

    static void clearMark() {
        MARK.remove();
    }

    /** Called by the task decorator after a run: {@code gatedJob} tells which job the scheduler ran. */
    void recordRun(boolean gatedJob, long outerNanos, long startNanos) {
        Mark mark = MARK.get();
        MARK.remove();
        if (!measuring) {
            return;
        }
        Kind kind;
        long overhead;
        if (mark == null) {
            kind = gatedJob ? Kind.SKIPPED : Kind.CONTROL;
            overhead = outerNanos;
        } else {
            kind = mark.kind();
            overhead = outerNanos - mark.bodyNanos();
        }
        synchronized (runs) {
            runs.add(new long[] {kind.ordinal(), overhead, startNanos});
        }
    }

    /** Every recorded run: {kind ordinal, overhead ns, start nanoTime}. */
    public List<long[]> runs() {
        synchronized (runs) {
            return List.copyOf(runs);
        }
    }

    public long count(Kind kind) {
        return runs().stream().filter(r -> r[0] == kind.ordinal()).count();
    }

    private record Mark(Kind kind, long bodyNanos) {
    }
}
