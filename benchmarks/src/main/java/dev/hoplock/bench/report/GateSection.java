package dev.hoplock.bench.report;

import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.jspecify.annotations.Nullable;

import static dev.hoplock.bench.report.Fmt.d;
import static dev.hoplock.bench.report.Fmt.f0;
import static dev.hoplock.bench.report.Fmt.f1;
import static dev.hoplock.bench.report.Fmt.f2;
import static dev.hoplock.bench.report.Fmt.m;
import static dev.hoplock.bench.report.Fmt.orZero;
import static dev.hoplock.bench.report.Fmt.verdict;
import static dev.hoplock.bench.report.RequestTables.scheduledLatency;

/**
 * Section 2: the cost per call of {@code @LeaderOnly} measured by JMH, against the floor of a no-op Spring advisor and
 * the clock reads, with the targets of issue 10 and a verdict for each, and the leader's floor (the minimal correct
 * gate of the same run, issue 24) against the leader's bound; a verdict on time is qualified when the machine was
 * loaded during the run.
 */
final class GateSection extends Section {

    GateSection(MarkdownPage page, ResultFiles results) {
        super(page, results);
    }

    void write(Map<String, double[]> jmh, @Nullable Properties hoplock, @Nullable Properties shedlock) {
        line("## 2. Gate cost of `@LeaderOnly` (JMH), against the framework's floor");
        line("");
        command("jmh");
        double[] plain = jmh.get("plain");
        double[] noop = jmh.get("noopAdvised");
        double[] leader = jmh.get("gatedOnLeader");
        double[] follower = jmh.get("gatedOnFollower");
        double[] clocks = jmh.get("clockMonotonicAndWall");
        if (plain == null || noop == null || leader == null || follower == null || clocks == null) {
            missing("jmh", "the gate cost against the no-op advisor");
            return;
        }
        line("`GateCostBenchmark`: two Spring Boot contexts in each fork with the starter's auto-configuration share one"
                + " in-memory store; the first leads, the second follows. The same one-line method"
                + " (`String work(String)`, returns its argument) is called through a bean without advice (not"
                + " proxied), through a bean proxied by the same auto-proxy creator with one advisor whose interceptor"
                + " only calls `proceed()` (the **no-op advisor**: what any annotation-driven Spring advice costs),"
                + " through the `@LeaderOnly` bean of the leader (runs) and of the follower (skipped, returns null),"
                + " and through a bean proxied alike whose one advisor is the **minimal correct gate**"
                + " (`minimalScopeOnLeader`: `Elector.tryEnterLeaderScope(true)` before the call, the scope closed"
                + " and the interrupt it delivered cleared after it; nothing else: no gate lookup per method, no"
                + " `LeaderContextHolder`, no rule for nested calls, no listener), the leader's floor."
                + " The clock rows read `System.nanoTime()` alone and with `System.currentTimeMillis()`: the gate on"
                + " the leader reads both on every call (rule 2, self-fencing: the monotonic deadline and the wall"
                + " deadline of the term). No Micrometer registry is present, so the follower's skip counter is not"
                + " part of the figure. All rows come from one JMH run, " + m(stages, "jmh.settings") + ", `-prof gc`.");
        line("");
        line("| benchmark | ns per call | error (99.9%) | added over the plain call | allocated per call |");
        line("|---|---|---|---|---|");
        for (String name : List.of("plain", "noopAdvised", "minimalScopeOnLeader", "gatedOnLeader", "gatedOnFollower",
                "clockMonotonic", "clockMonotonicAndWall", "isLeaderOnLeader")) {
            double[] r = jmh.get(name);
            if (r == null) {
                continue;
            }
            boolean call = name.equals("noopAdvised") || name.startsWith("gated") || name.startsWith("minimal");
            String added = call ? f1(r[0] - plain[0]) + " +/- " + f1(Math.hypot(r[1], plain[1])) + " ns" : "-";
            Double bytes = allocated(jmh, name);
            line("| " + name + " | " + f2(r[0]) + " | +/- " + f2(r[1]) + " | " + added + " | "
                    + (bytes == null ? "-" : f0(bytes) + " B") + " |");
        }
        line("");
        double floor = noop[0] - plain[0];
        double followerAdded = follower[0] - plain[0];
        double leaderAdded = leader[0] - plain[0];
        double leaderBound = floor + clocks[0] + 20;
        double noopBytes = orZero(allocated(jmh, "noopAdvised"));
        double followerBytes = orZero(allocated(jmh, "gatedOnFollower")) - noopBytes;
        double leaderBytes = orZero(allocated(jmh, "gatedOnLeader")) - noopBytes;
        line("Targets (issue 10), from the means of this run. The framework's part is the no-op advisor's added cost, "
                + f1(floor) + " ns and " + f0(noopBytes) + " B per call (the proxy's method invocation and argument"
                + " array); the clocks' part is " + f1(clocks[0]) + " ns.");
        line("");
        line("| target | bound | measured | verdict |");
        line("|---|---|---|---|");
        line("| follower: time added <= 1.5 x the no-op advisor's | " + f1(1.5 * floor) + " ns | " + f1(followerAdded)
                + " ns (" + f2(followerAdded / floor) + " x) | " + verdict(followerAdded, 1.5 * floor, " ns") + " |");
        line("| follower: 0 B allocated beyond the no-op advisor's | 0 B | " + f0(followerBytes) + " B | "
                + verdict(followerBytes, 8, " B") + " |");
        line("| leader: time added <= no-op advisor + both clock reads + 20 ns | " + f1(leaderBound) + " ns | "
                + f1(leaderAdded) + " ns | " + verdict(leaderAdded, leaderBound, " ns") + " |");
        // The scope is 40 B; 8 B of slack, as for the follower's 0 B, for the sampling of gc.alloc.rate.norm.
        line("| leader: at most one small allocation beyond the no-op advisor's | 1 object (the scope, 40 B) | "
                + f0(leaderBytes) + " B | " + verdict(leaderBytes, 48, " B") + " |");
        double[] minimal = jmh.get("minimalScopeOnLeader");
        if (minimal != null) {
            double floorAdded = minimal[0] - plain[0];
            line("| the floor is within the leader's bound: the minimal correct gate's time added | " + f1(leaderBound)
                    + " ns | " + f1(floorAdded) + " ns | " + verdict(floorAdded, leaderBound, " ns") + " |");
            line("");
            line("The leader's gate adds " + f1(leaderAdded - floorAdded) + " ns over the minimal correct gate of the"
                    + " same run (" + f1(floorAdded) + " ns added): what it gives its users beyond the floor (the"
                    + " method's gate, the election and the skip value looked up, the scope made the thread's"
                    + " `LeaderContextHolder` context, the interrupt rule for nested calls). The floor itself is the"
                    + " no-op advisor, both clock reads, the scope's allocation and one compare-and-set each to list and"
                    + " to unlist it.");
        }
        line("");
        String load = stages.getProperty("jmh.load", "?");
        line("The error of a difference combines both errors (root of the sum of squares). The bytes per call do not"
                + " depend on the load. The machine's 1-minute load average was " + load + " during this run, on 2"
                + " cores; " + (busy(load) ? "with other builds running, each benchmark thread got a fraction of a"
                + " core and preemption lands inside the measured calls, so a time target missed under such load"
                + " says nothing either way: re-run `STAGES=jmh benchmarks/run.sh` on a quiet machine."
                : "that is the benchmark itself (one measured thread plus JMH and the JIT), so the times are quiet"
                + " figures and the verdicts on time stand.")
                + " What the gate adds over the no-op advisor, per call, and so where the time beyond the targets"
                + " goes: one map lookup by method for the method's invoker (its gate, call style, election and skip"
                + " value, resolved at the first call; matched by the target's class), and"
                + " `Elector.tryEnterLeaderScope` (one volatile read of the term); a follower then skips and tells its"
                + " listeners. On the leader also both clock reads (rule 2, on every call: the monotonic and the wall"
                + " deadline of the term), the scope (the one allocation: listed in its term without a lock, one"
                + " compare-and-set on the head of the term's stack of scopes to open and one to close, so that the"
                + " end of the term can interrupt it and close and step-down can wait for it: issue 9, defect 2; the"
                + " bookkeeping of a loss is paid by the end of the term, not per call), the thread's context and"
                + " interrupt bookkeeping (one thread-local lookup, no allocation), and `wasLost()` after the call."
                + " `tryEnterLeaderScope` returns the scope or null, so the scope is the leader's only allocation"
                + " beyond the proxy's. It reads local lease state only: no store request.");
        if (shedlock != null && hoplock != null) {
            line("");
            line("ShedLock has no per-call gate to compare with: its equivalent is the lock and unlock around each run,"
                    + " two database transactions. Section 3 measures both libraries the same way, on scheduled runs"
                    + " (cold code, 10 calls a second): hoplock adds " + scheduledLatency(hoplock, shedlock)[0]
                    + " per execution there, ShedLock " + f0(d(shedlock, "added_latency_per_execution_us"))
                    + " us.");
        }
        line("");
    }

    /** True when the highest 1-minute load average of a range such as "1.12 to 1.50" exceeds the 2 cores. */
    private static boolean busy(String load) {
        double highest = 0;
        for (String part : load.split("[^0-9.]+")) {
            if (!part.isEmpty() && !part.equals(".")) {
                try {
                    highest = Math.max(highest, Double.parseDouble(part));
                } catch (NumberFormatException e) {
                    return true;
                }
            }
        }
        return highest == 0 || highest > 2;
    }

    private static @Nullable Double allocated(Map<String, double[]> jmh, String name) {
        double[] alloc = jmh.get(name + ":gc.alloc.rate.norm");
        return alloc == null ? null : alloc[0];
    }
}
