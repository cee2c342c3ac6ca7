package dev.hoplock.bench.report;

import java.util.Properties;
import org.jspecify.annotations.Nullable;

import static dev.hoplock.bench.report.Fmt.m;
import static dev.hoplock.bench.report.Fmt.v;
import static dev.hoplock.bench.report.RequestTables.scheduledLatency;

/**
 * Section 5: hoplock's JDBC store beside ShedLock's JDBC provider on one PostgreSQL, counted the same way.
 */
final class JdbcSection extends Section {

    private final RequestTables tables = new RequestTables(page, results);

    JdbcSection(MarkdownPage page, ResultFiles results) {
        super(page, results);
    }

    void write(@Nullable Properties hoplock, @Nullable Properties shedlock) {
        line("## 5. One store, one database, two designs: hoplock's JDBC store and ShedLock's JDBC provider");
        line("");
        command("jdbc-hoplock", "hoplock-jdbc: ");
        command("jdbc-shedlock", "ShedLock: ");
        if (hoplock == null || shedlock == null) {
            missing(hoplock == null ? "jdbc-hoplock" : "jdbc-shedlock", "the JDBC store comparison");
            return;
        }
        line("The harness of section 3 (a job every 100 ms on three Spring Boot contexts in one JVM, after a "
                + m(stages, "jdbc.warmup") + " s warm-up, counted for " + m(stages, "jdbc.window") + " s), with both"
                + " libraries on the same PostgreSQL server, each instance with its own HikariCP pool of 2 over the"
                + " same counting `DataSource` (every `execute*`, `commit`, `rollback` and `isValid` counted as one"
                + " round trip), run one after the other in one run of the stage:");
        line("");
        line("- **hoplock-jdbc**: the real Spring Boot path. The application defines its store as a `Backend` bean, a"
                + " `JdbcBackend` over the pool (table `hoplock_bench_lease`, created from the shipped PostgreSQL DDL);"
                + " the starter's auto-configuration backs off from its own store (`@ConditionalOnMissingBean(Backend)`)"
                + " and builds the election, the elector and the `@LeaderOnly` gate around it. TTL "
                + m(hoplock, "ttl") + " (renew TTL/3, poll TTL/15), `@LeaderOnly` on the job.");
        line("- **ShedLock 7.10.1**: exactly as in section 3 (`JdbcTemplateLockProvider`, `usingDbTime()`,"
                + " `lockAtLeastFor = 90 ms`).");
        line("");
        line("| | hoplock-jdbc (PostgreSQL) | ShedLock (PostgreSQL) | ShedLock / hoplock-jdbc |");
        line("|---|---|---|---|");
        tables.countRows(hoplock, shedlock);
        line("| requests before the window (start-up and warm-up) | " + v(hoplock, "startup_requests", 0) + " | "
                + v(shedlock, "startup_requests", 0) + " | |");
        String[] latency = scheduledLatency(hoplock, shedlock);
        line("| added latency per execution, p50 (executed run minus ungated control run) | " + latency[0] + " | "
                + v(shedlock, "added_latency_per_execution_us", 0) + " us | " + latency[1] + " |");
        line("| requests per hour by each instance (role) | " + tables.perInstance("jdbc-requests-hoplock-jdbc.csv", hoplock)
                + " | " + tables.perInstance("jdbc-requests-shedlock.csv", shedlock) + " | |");
        line("| leader at the start / end of the window | " + m(hoplock, "leaders_at_start") + " / "
                + m(hoplock, "leaders_at_end") + " | - | |");
        line("");
        line("Each hoplock request is one single-statement transaction in autocommit (a `SELECT` for a follower's"
                + " poll, an `UPDATE ... WHERE version = ?` for the leader's renewal), so the statements per hour"
                + " follow the formula of section 3, 3600/renew + (n-1) x 3600/poll, 3,960 at TTL 30 s. On top of"
                + " that comes HikariCP's liveness check: a connection idle for more than 500 ms is validated"
                + " (`isValid`, one round trip) before it is lent, and at one request every 2 s or 10 s that is every"
                + " borrow (`jdbc.isValid` above), which doubles the count; against S3 (section 3) there is no such"
                + " check, hence half the requests there. ShedLock's count grows with executions x instances as in"
                + " section 3; its connections are busy every 100 ms and are rarely validated. The gate itself reads"
                + " local state, so hoplock's per-hour figure does not depend on the schedule, and its per-execution"
                + " figure falls as the job runs more often. Raw data: `benchmarks/results/jdbc-requests-*.csv` and"
                + " `.properties`.");
        line("");
        line("The machine was busy while this stage ran (1-minute load average " + m(stages, "jdbc-hoplock.load")
                + " during hoplock-jdbc, " + m(stages, "jdbc-shedlock.load") + " during ShedLock, on 2 cores: other"
                + " builds), so its latencies are not comparable with those of section 3; the request counts do not"
                + " depend on the load (both libraries ran their 100 ms schedule; ShedLock ran " + m(shedlock,
                "executions") + " of " + m(shedlock, "periods") + " periods).");
        line("");
    }
}
