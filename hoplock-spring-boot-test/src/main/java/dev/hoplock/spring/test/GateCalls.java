package dev.hoplock.spring.test;

import dev.hoplock.spring.leader.LeaderOnlyListener;
import dev.hoplock.spring.lock.WithLockListener;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Which gated methods ran and which did not, in a test context with {@link AutoConfigureHoplock}: the calls of
 * {@code @LeaderOnly} (also keyed) and {@code @WithLock} methods, counted per method as {@code SimpleClassName.method}
 * (as the {@code hoplock.leader-only.skipped} meter names them).
 *
 * <p>A call <em>ran</em> when the gate let it through (counted as it enters the method, inside the gate); it was
 * <em>skipped</em> when the gate did not run it (this instance does not lead, does not own the key, or the lock is held;
 * also a call refused with an exception), as the gates report to their listeners. Every method below takes either the
 * full name ({@code "Jobs.report"}) or the method name alone ({@code "report"}), which then sums every class's method
 * of that name.
 *
 * <p>Guarantees: counts only rise until {@link #reset()}; thread-safe. The {@code await} methods block until the count
 * is reached or fail after the annotation's timeout, naming the counts; they replace polling or Awaitility in a test.
 */
public final class GateCalls implements LeaderOnlyListener, WithLockListener {

    private final Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> skips = new ConcurrentHashMap<>();
    private final Duration timeout;

    GateCalls(Duration timeout) {
        this.timeout = timeout;
    }

    /** How many calls of {@code method} ran since the start or the last {@link #reset()}. */
    public int runs(String method) {
        return count(runs, method);
    }

    /** How many calls of {@code method} the gate skipped since the start or the last {@link #reset()}. */
    public int skips(String method) {
        return count(skips, method);
    }

    /** Fails unless {@code method} ran exactly {@code times} times. */
    public void assertRan(String method, int times) {
        int ran = runs(method);
        if (ran != times) {
            throw new AssertionError("expected " + method + " to have run " + times + " time(s), but it ran " + ran
                    + " time(s); " + this);
        }
    }

    /** Fails unless {@code method} ran exactly once. */
    public void assertRanOnce(String method) {
        assertRan(method, 1);
    }

    /** Fails if {@code method} ran at all. */
    public void assertNotRun(String method) {
        assertRan(method, 0);
    }

    /** Fails unless the gate skipped {@code method} exactly {@code times} times. */
    public void assertSkipped(String method, int times) {
        int skipped = skips(method);
        if (skipped != times) {
            throw new AssertionError("expected " + method + " to have been skipped " + times + " time(s), but it was"
                    + " skipped " + skipped + " time(s); " + this);
        }
    }

    /** Blocks until {@code method} ran at least {@code times} times; fails after the timeout. */
    public void awaitRuns(String method, int times) {
        await(runs, method, times, "run");
    }

    /** Blocks until the gate skipped {@code method} at least {@code times} times; fails after the timeout. */
    public void awaitSkips(String method, int times) {
        await(skips, method, times, "been skipped");
    }

    /** Forgets every count. */
    public void reset() {
        runs.clear();
        skips.clear();
    }

    @Override
    public String toString() {
        return "ran " + snapshot(runs) + ", skipped " + snapshot(skips);
    }

    @Override
    public void notRun(String election, Method method) {
        record(skips, method);
    }

    @Override
    public void refused(String lock, Method method, Refusal why) {
        record(skips, method);
    }

    void ran(Method method) {
        record(runs, method);
    }

    private void await(Map<String, AtomicInteger> counts, String method, int times, String what) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (count(counts, method) < times) {
            if (System.nanoTime() - deadline >= 0) {
                throw new AssertionError("waited " + timeout.toSeconds() + "s for " + method + " to have " + what
                        + " " + times + " time(s), in vain: " + this);
            }
            if (Thread.currentThread().isInterrupted()) {
                throw new AssertionError("interrupted while waiting for " + method);
            }
            LockSupport.parkNanos(Duration.ofMillis(5).toNanos());
        }
    }

    private static void record(Map<String, AtomicInteger> counts, Method method) {
        counts.computeIfAbsent(name(method), k -> new AtomicInteger()).incrementAndGet();
    }

    static String name(Method method) {
        return method.getDeclaringClass().getSimpleName() + "." + method.getName();
    }

    private static int count(Map<String, AtomicInteger> counts, String method) {
        if (method.contains(".")) {
            AtomicInteger count = counts.get(method);
            return count == null ? 0 : count.get();
        }
        String suffix = "." + method;
        return counts.entrySet().stream().filter(e -> e.getKey().endsWith(suffix))
                .mapToInt(e -> e.getValue().get()).sum();
    }

    private static Map<String, Integer> snapshot(Map<String, AtomicInteger> counts) {
        Map<String, Integer> copy = new TreeMap<>();
        counts.forEach((k, v) -> copy.put(k, v.get()));
        return copy;
    }
}
