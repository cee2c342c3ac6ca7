package dev.hoplock.core.sim;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs many {@link Simulation} schedules and fails with the seed and the trace of the first schedule that breaks an
 * invariant or a liveness bound.
 *
 * <p>System properties: {@code hoplock.sim.schedules} (default 1000; the {@code simulation-long} profile runs 10,000),
 * {@code hoplock.sim.baseSeed} (default 20261130; schedule {@code i} uses seed {@code baseSeed + i}),
 * {@code hoplock.sim.seed} (run exactly one seed and print its whole trace), {@code hoplock.sim.threads} (default:
 * available processors; each schedule runs on one thread), {@code hoplock.sim.report} (a file for the summary),
 * {@code hoplock.sim.faults} (the fault kinds added for issue 9, see {@link Simulation.Fault}: {@code all} by default,
 * {@code none}, or a list such as {@code sync-answers,suspend}, to attribute a failure to one of them).
 */
@Tag("simulation")
class SimulationTest {

    private static final long BASE_SEED = Long.getLong("hoplock.sim.baseSeed", 20261130L);
    private static final Set<Simulation.Fault> FAULTS = Simulation.Fault.parse(System.getProperty("hoplock.sim.faults"));

    @Test
    void noScheduleBreaksAnInvariant() throws Exception {
        Long single = Long.getLong("hoplock.sim.seed");
        if (single != null) {
            Simulation sim = new Simulation(single, 1_000_000, FAULTS);
            Simulation.Result result = sim.run();
            System.out.println(sim.trace.dump());
            System.out.println(summary(List.of(result), 0, 0));
            return;
        }
        int schedules = Integer.getInteger("hoplock.sim.schedules", 1000);
        int threads = Integer.getInteger("hoplock.sim.threads", Runtime.getRuntime().availableProcessors());
        long started = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<Simulation.Result>> futures = new ArrayList<>();
        try {
            for (int i = 0; i < schedules; i++) {
                long seed = BASE_SEED + i;
                futures.add(pool.submit(() -> new Simulation(seed, 400, FAULTS).run()));
            }
            List<Simulation.Result> results = new ArrayList<>();
            List<Throwable> failures = new ArrayList<>();
            for (Future<Simulation.Result> future : futures) {
                try {
                    results.add(future.get());
                } catch (java.util.concurrent.ExecutionException e) {
                    failures.add(e.getCause());
                }
            }
            long wallMillis = (System.nanoTime() - started) / 1_000_000;
            if (!results.isEmpty()) {
                // Printed even when schedules failed: the fault counts of the others still tell what ran.
                System.out.println(summary(results, wallMillis, failures.size()));
            }
            if (!failures.isEmpty()) {
                String seeds = failures.stream().map(f -> f.getMessage().lines().findFirst().orElse(""))
                        .map(line -> line.substring(0, Math.min(line.length(), 300))).collect(Collectors.joining("\n  "));
                throw new AssertionError(failures.size() + " of " + schedules + " schedules failed:\n  " + seeds
                        + "\n\nFirst failure:\n" + failures.get(0).getMessage(), failures.get(0));
            }
            String summary = summary(results, wallMillis, 0);
            String report = System.getProperty("hoplock.sim.report");
            if (report != null) {
                Files.writeString(Path.of(report), summary);
            }
            assertThat(results).hasSize(schedules);
            SimStats total = new SimStats();
            results.forEach(r -> total.merge(r.stats()));
            if (schedules >= 100) {
                // The injection itself is under test: every kind of fault must actually have happened.
                assertThat(total.counters).containsKeys("fault.pause-longer-than-ttl", "fault.partition-refused",
                        "fault.partition-blackhole", "fault.partition-one_way", "fault.slow-link", "fault.loss-window",
                        "fault.burst-throttle_503", "fault.burst-internal_500_after_apply", "fault.burst-conflict_409",
                        "fault.kill", "fault.graceful-close", "fault.step-down", "fault.wall-clock-step",
                        "net.request-lost", "net.response-lost.silent", "net.response-lost.reset", "net.sdk-retry-412",
                        "net.latency-longer-than-ttl", "net.partition.one-way", "net.burst.409-conflict",
                        "fault.store-outage", "net.store-down.hung");
                for (Simulation.Fault fault : FAULTS) {
                    assertThat(total.counters).as("what %s injects", fault).containsKeys(injected(fault));
                }
                assertThat(total.holderChanges).isGreaterThan(schedules * 3L);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** The counters that show that {@code fault} really happened. */
    private static String[] injected(Simulation.Fault fault) {
        return switch (fault) {
            case LEADER_WORK -> new String[] {"work.scopes", "work.nested-scopes", "work.scopes-told", "work.interrupts",
                    "work.stopped-on-interrupt", "work.stopped-on-isLeading", "work.finished-after-loss"};
            case SYNC_ANSWERS -> new String[] {"fault.sync-answers", "net.answered-synchronously"};
            case SCHEDULER_FAILURE -> new String[] {"fault.scheduler-failure", "sched.rejected", "sched.threw"};
            case EXTERNAL_DELETE -> new String[] {"fault.external-delete"};
            case SUSPEND -> new String[] {"fault.suspend-longer-than-ttl", "fault.suspend-shorter-than-ttl"};
            case MIXED_TTL -> new String[] {"fault.mixed-ttl-schedule"};
            case STEP_DOWN_DURING_RENEWAL -> new String[] {"fault.step-down-during-renewal-answered",
                    "fault.step-down-during-renewal-refused-409", "fault.step-down-during-renewal-lost"};
        };
    }

    @Test
    void aSeedReplaysTheSameSchedule() {
        long seed = BASE_SEED + 7;
        Simulation first = new Simulation(seed, 100_000);
        Simulation.Result a = first.run();
        Simulation second = new Simulation(seed, 100_000);
        Simulation.Result b = second.run();
        assertThat(second.trace.dump()).isEqualTo(first.trace.dump());
        assertThat(b.stats().counters).isEqualTo(a.stats().counters);
        assertThat(b.failoverNanos()).isEqualTo(a.failoverNanos());
        assertThat(first.trace.recorded()).isGreaterThan(500);
    }

    static String summary(List<Simulation.Result> results, long wallMillis, int failed) {
        SimStats total = new SimStats();
        results.forEach(r -> total.merge(r.stats()));
        StringBuilder out = new StringBuilder();
        out.append("hoplock simulation: ").append(results.size()).append(" schedules, base seed ").append(BASE_SEED)
                .append(", new faults ").append(FAULTS.equals(EnumSet.allOf(Simulation.Fault.class)) ? "all" : FAULTS)
                .append(", ").append(Duration.ofNanos(total.virtualNanos).toHours()).append(" h of virtual time in ")
                .append(wallMillis).append(" ms\n");
        out.append("  requests ").append(total.requests).append(", store writes ").append(total.storeWrites)
                .append(", changes of holder ").append(total.holderChanges).append(", terms ").append(total.terms)
                .append(", invariant checks ").append(total.checks).append("\n");
        out.append("  schedules that broke an invariant or a liveness bound (two leaders, late self-fencing,"
                + " disagreement, generation, events, leader-work overlap, un-told scopes, lost interrupts, release under"
                + " running work): ").append(failed).append(failed == 0 ? "" : " (not counted below)").append("\n");
        out.append("  faults injected: ").append(total.faults()).append("\n");
        total.counters.forEach((k, v) -> {
            if (k.startsWith("fault.") || k.startsWith("net.") || k.startsWith("sched.")) {
                out.append(String.format("    %-42s %d%n", k, v));
            }
        });
        out.append("  leader work:\n");
        total.counters.forEach((k, v) -> {
            if (k.startsWith("work.")) {
                out.append(String.format("    %-42s %d%n", k, v));
            }
        });
        out.append("  losses of leadership by cause:\n");
        total.counters.forEach((k, v) -> {
            if (k.startsWith("loss.") || k.startsWith("problem.")) {
                out.append(String.format("    %-42s %d%n", k, v));
            }
        });
        Map<Long, List<Simulation.Result>> byTtl = new TreeMap<>(results.stream()
                .collect(Collectors.groupingBy(r -> r.config().ttl().toSeconds())));
        byTtl.forEach((ttl, group) -> {
            long poll = -1;
            out.append("  TTL ").append(ttl).append(" s (").append(group.size()).append(" schedules):\n");
            out.append("    failover, wall clocks skewed:         ").append(percentiles(group, Simulation.Result::failoverNanos))
                    .append("   [per TTL + poll: ").append(ratio(group, Simulation.Result::failoverNanos)).append("]\n");
            out.append("    failover, wall clocks synchronised:   ").append(percentiles(group,
                    Simulation.Result::syncedFailoverNanos)).append("   [per TTL + poll: ")
                    .append(ratio(group, Simulation.Result::syncedFailoverNanos)).append("]\n");
            out.append("    handover after graceful close:        ").append(percentiles(group, Simulation.Result::handoverNanos)).append("\n");
            out.append("    leader after all faults healed:       ").append(percentiles(group, Simulation.Result::recoveryNanos)).append("\n");
        });
        return out.toString();
    }

    private static String percentiles(List<Simulation.Result> group, java.util.function.ToLongFunction<Simulation.Result> f) {
        List<Long> values = new ArrayList<>(group.stream().map(f::applyAsLong).toList());
        Collections.sort(values);
        Simulation.Result worst = group.stream().max(java.util.Comparator.comparingLong(f)).orElseThrow();
        return String.format("p50 %.2f s, p99 %.2f s, max %.2f s (seed %d)", pick(values, 0.50) / 1e9,
                pick(values, 0.99) / 1e9, values.get(values.size() - 1) / 1e9, worst.seed());
    }

    private static String ratio(List<Simulation.Result> group, java.util.function.ToLongFunction<Simulation.Result> f) {
        List<Double> values = new ArrayList<>(group.stream().map(r -> f.applyAsLong(r)
                / (double) (r.config().ttl().toNanos() + r.config().poll().toNanos())).toList());
        Collections.sort(values);
        return String.format("p50 %.2f, p99 %.2f, max %.2f", values.get(index(values.size(), 0.5)),
                values.get(index(values.size(), 0.99)), values.get(values.size() - 1));
    }

    private static long pick(List<Long> sorted, double q) {
        return sorted.get(index(sorted.size(), q));
    }

    private static int index(int size, double q) {
        return Math.min(size - 1, (int) Math.ceil(q * size) - 1 < 0 ? 0 : (int) Math.ceil(q * size) - 1);
    }
}
