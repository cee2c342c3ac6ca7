package dev.hoplock.bench.report;

import dev.hoplock.bench.common.Results;
import dev.hoplock.bench.common.Stats;

import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import org.jspecify.annotations.Nullable;

import static dev.hoplock.bench.report.Fmt.d;
import static dev.hoplock.bench.report.Fmt.f0;
import static dev.hoplock.bench.report.Fmt.f1;
import static dev.hoplock.bench.report.Fmt.f2;
import static dev.hoplock.bench.report.Fmt.f3;
import static dev.hoplock.bench.report.Fmt.fx;
import static dev.hoplock.bench.report.Fmt.m;
import static dev.hoplock.bench.report.Fmt.signed;
import static dev.hoplock.bench.report.RequestTables.scheduledLatency;

/**
 * The summary table: one row per headline figure, hoplock beside ShedLock where both were measured, with the ratio
 * and the bound the figure is held to. A row whose results are missing is left out; its section says why.
 */
final class SummarySection extends Section {

    SummarySection(MarkdownPage page, ResultFiles results) {
        super(page, results);
    }

    void write(@Nullable Properties failover, Map<String, double[]> jmh, @Nullable Properties hoplock,
            @Nullable Properties shedlock, @Nullable Properties startup, @Nullable Properties hoplockJdbc,
            @Nullable Properties shedlockJdbc, @Nullable Properties hoplockEs, @Nullable Properties failoverEs,
            @Nullable Properties rolling) {
        line("## Summary");
        line("");
        line("| figure | hoplock | ShedLock 7.10.1 (JDBC, PostgreSQL) | ratio | bound |");
        line("|---|---|---|---|---|");
        if (failover != null) {
            double ttl = d(failover, "ttl_ms");
            double poll = d(failover, "poll_ms");
            line("| failover after kill -9, p50 / p99 (TTL " + f0(ttl) + " ms) | " + f0(d(failover, "crash_p50_ms"))
                    + " / " + f0(d(failover, "crash_p99_ms")) + " ms | no leader to fail over: a lock per run (see 1) | "
                    + f2(d(failover, "crash_p50_ms") / ttl) + " / " + f2(d(failover, "crash_p99_ms") / ttl)
                    + " x TTL | >= TTL after the last renewal: measured " + f2(d(failover, "crash_since_write_min_ms")
                    / ttl) + " to " + f2(d(failover, "crash_since_write_max_ms") / ttl) + " x TTL |");
            String outliers = "";
            String notEffective = failover.getProperty("graceful_release_not_effective", "0");
            if (!notEffective.equals("0")) {
                Stats effective = Stats.of(Results.readCsv(results.resolve("failover-graceful.csv")).stream()
                        .filter(r -> !"false".equals(r.get("release_took_effect")))
                        .map(r -> Double.parseDouble(r.get("stop_to_acquired_ms"))).toList());
                outliers = " (" + notEffective + " of " + m(failover, "graceful_reps") + " took about a TTL: the release"
                        + " did not take effect, see 1; without them " + f0(effective.median()) + " / "
                        + f0(effective.p99()) + " ms, " + f2(effective.median() / poll) + " / "
                        + f2(effective.p99() / poll) + " x poll)";
            }
            line("| graceful handover, p50 / p99 (poll " + f0(poll) + " ms) | " + f0(d(failover, "graceful_p50_ms"))
                    + " / " + f0(d(failover, "graceful_p99_ms")) + " ms" + outliers + " | - | "
                    + f2(d(failover, "graceful_p50_ms") / poll) + " / " + f2(d(failover, "graceful_p99_ms") / poll)
                    + " x poll | release + at most one poll |");
        }
        double[] leader = jmh.get("gatedOnLeader");
        double[] follower = jmh.get("gatedOnFollower");
        double[] plain = jmh.get("plain");
        double[] noop = jmh.get("noopAdvised");
        double[] clocks = jmh.get("clockMonotonicAndWall");
        if (leader != null && plain != null && follower != null && noop != null && clocks != null) {
            line("| added per call: @LeaderOnly on the leader / on a follower (JMH, hot code) | " + f1(leader[0] - plain[0])
                    + " / " + f1(follower[0] - plain[0]) + " ns | its equivalent is a lock and an unlock per run:"
                    + " see the latency per scheduled execution below | - | floor: a no-op Spring advisor adds "
                    + f1(noop[0] - plain[0]) + " ns, the leader's two clock reads " + f1(clocks[0]) + " ns (see 2) |");
        }
        if (hoplock != null && shedlock != null) {
            line("| store requests per execution (job every 100 ms on 3 instances) | "
                    + f3(d(hoplock, "requests_per_execution")) + " | " + f2(d(shedlock, "requests_per_execution"))
                    + " | " + fx(d(shedlock, "requests_per_execution") / d(hoplock, "requests_per_execution"))
                    + " ShedLock / hoplock | - |");
            line("| store requests per hour (3 instances) | " + f0(d(hoplock, "requests_per_hour")) + " | "
                    + f0(d(shedlock, "requests_per_hour")) + " | " + fx(d(shedlock, "requests_per_hour")
                    / d(hoplock, "requests_per_hour")) + " | - |");
            String[] latency = scheduledLatency(hoplock, shedlock);
            line("| added latency per scheduled execution, p50 | " + latency[0] + " | "
                    + f0(d(shedlock, "added_latency_per_execution_us")) + " us | " + latency[1] + " | - |");
        }
        if (hoplockJdbc != null && shedlockJdbc != null) {
            line("| store requests per hour, both on one PostgreSQL: hoplock's JDBC store / ShedLock's JDBC provider"
                    + " (3 instances, see 5) | " + f0(d(hoplockJdbc, "requests_per_hour")) + " | "
                    + f0(d(shedlockJdbc, "requests_per_hour")) + " | " + fx(d(shedlockJdbc, "requests_per_hour")
                    / d(hoplockJdbc, "requests_per_hour")) + " | - |");
        }
        Properties lockJdbc = results.load("jdbc-requests-hoplock-jdbc-lock.properties");
        if (lockJdbc != null && shedlockJdbc != null) {
            line("| store requests per execution, a lock per run on one PostgreSQL: `@WithLock` / ShedLock's"
                    + " `@SchedulerLock` (3 instances, see 9; `@LeaderOnly`: " + f3(d(Objects.requireNonNull(hoplockJdbc,
                    "measured in the same stage as the lock per run"),
                    "requests_per_execution")) + ") | " + f2(d(lockJdbc, "requests_per_execution")) + " | "
                    + f2(d(shedlockJdbc, "requests_per_execution")) + " | " + fx(d(shedlockJdbc,
                    "requests_per_execution") / d(lockJdbc, "requests_per_execution")) + " | - |");
            line("| added latency per execution, a lock per run on one PostgreSQL: `@WithLock` / ShedLock's"
                    + " `@SchedulerLock`, p50 (see 9) | " + f0(d(lockJdbc, "added_latency_per_execution_us")) + " us | "
                    + f0(d(shedlockJdbc, "added_latency_per_execution_us")) + " us | "
                    + fx(d(shedlockJdbc, "added_latency_per_execution_us")
                    / d(lockJdbc, "added_latency_per_execution_us")) + " | the winner's two writes; for scale, two statements"
                    + " on the lock record at their mean time (reads included; a write, which PostgreSQL flushes to disk,"
                    + " takes longer): " + f0(2 * d(lockJdbc, "time.lockkey.jdbc.execute_us_mean")) + " us |");
        }
        Properties lockS3 = results.load("requests-hoplock-s3-lock.properties");
        if (lockS3 != null) {
            line("| store requests per execution (of them on the lock record) / added latency p50, a lock per run on"
                    + " the S3 test server: `@WithLock` (3 instances, see 9) | " + f2(d(lockS3,
                    "requests_per_execution")) + " (" + f2(d(lockS3, "lock_requests_per_execution")) + ") / "
                    + f0(d(lockS3, "added_latency_per_execution_us")) + " us | not measured: ShedLock's S3 provider is"
                    + " not served at 7.10.1 (see 9) | - | - |");
        }
        if (hoplockEs != null) {
            line("| store requests per hour / per execution on OpenSearch 2.19.6: hoplock's Elasticsearch store"
                    + " (3 instances, see 6) | " + f0(d(hoplockEs, "requests_per_hour")) + " / "
                    + f3(d(hoplockEs, "requests_per_execution")) + " | not measured (see 6) | - | - |");
        }
        if (failoverEs != null) {
            double ttl = d(failoverEs, "ttl_ms");
            line("| failover after kill -9 / graceful handover, p50 / p99, on OpenSearch 2.19.6 (TTL " + f0(ttl)
                    + " ms, see 6) | " + f0(d(failoverEs, "crash_p50_ms")) + " / " + f0(d(failoverEs, "crash_p99_ms"))
                    + " ms; " + f0(d(failoverEs, "graceful_p50_ms")) + " / " + f0(d(failoverEs, "graceful_p99_ms"))
                    + " ms | - | " + f2(d(failoverEs, "crash_p50_ms") / ttl) + " / "
                    + f2(d(failoverEs, "crash_p99_ms") / ttl) + " x TTL | >= TTL after the last renewal: measured "
                    + f2(d(failoverEs, "crash_since_write_min_ms") / ttl) + " to "
                    + f2(d(failoverEs, "crash_since_write_max_ms") / ttl) + " x TTL |");
        }
        for (String[] store : StoresSection.STORES) {
            Properties p = StoresSection.load(results, store[0]);
            if (p != null) {
                double ttl = d(p, "ttl_ms");
                line("| failover after kill -9 / graceful handover, p50 / p99 (TTL " + f0(ttl) + " ms); store requests"
                        + " per hour (3 instances, TTL 30 s): " + store[1] + " store on " + m(p, "server_version")
                        + " (see 10) | " + StoresSection.pair(p, "crash") + "; " + StoresSection.pair(p, "graceful")
                        + "; " + Fmt.v(p, "requests_per_hour", 0) + " per hour | - | " + f2(d(p, "crash_p50_ms") / ttl)
                        + " / " + f2(d(p, "crash_p99_ms") / ttl) + " x TTL | >= TTL after the last renewal: measured "
                        + f2(d(p, "crash_since_write_min_ms") / ttl) + " to " + f2(d(p, "crash_since_write_max_ms")
                        / ttl) + " x TTL |");
            }
        }
        if (startup != null) {
            line("| start-up added by the starter (minimal Boot app, filesystem store), p50 | "
                    + signed(d(startup, "added_run_ms")) + " ms (x" + f2(d(startup, "added_run_ratio")) + ") | - | - | - |");
        }
        if (rolling != null) {
            line("| rolling restart of 3 Boot JVMs: time with no leader per handover, p50 / max (poll "
                    + f0(d(rolling, "poll_ms")) + " ms, see 7) | " + f0(d(rolling, "no_leader_p50_ms")) + " / "
                    + f0(d(rolling, "no_leader_max_ms")) + " ms over " + m(rolling, "handovers") + " handovers; two"
                    + " leaders: " + m(rolling, "two_leaders") + "; won before ready: " + m(rolling,
                    "acquired_before_ready") + " | - | " + f2(d(rolling, "no_leader_p50_ms") / d(rolling, "poll_ms"))
                    + " / " + f2(d(rolling, "no_leader_max_ms") / d(rolling, "poll_ms")) + " x poll | release + at"
                    + " most one poll |");
        }
        line("");
    }
}
