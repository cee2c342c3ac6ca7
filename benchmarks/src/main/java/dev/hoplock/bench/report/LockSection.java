package dev.hoplock.bench.report;

import java.util.Properties;
import org.jspecify.annotations.Nullable;

import static dev.hoplock.bench.report.Fmt.kinds;
import static dev.hoplock.bench.report.Fmt.m;
import static dev.hoplock.bench.report.Fmt.slices;
import static dev.hoplock.bench.report.Fmt.v;

/**
 * Section 9: store requests per execution of {@code @WithLock}, on PostgreSQL beside {@code @LeaderOnly} and ShedLock
 * on the same server, and on the test S3 server (ShedLock's S3 provider is not served at the benchmarks' ShedLock
 * version, so that column has no ShedLock twin).
 */
final class LockSection extends Section {

    private final RequestTables tables = new RequestTables(page, results);

    LockSection(MarkdownPage page, ResultFiles results) {
        super(page, results);
    }

    void write(@Nullable Properties lock, @Nullable Properties leaderOnly, @Nullable Properties shedlock,
            @Nullable Properties lockS3) {
        line("## 9. Named locks: `@WithLock` next to `@LeaderOnly` and ShedLock, store requests per execution");
        line("");
        command("jdbc-hoplock-lock", "@WithLock on PostgreSQL: ");
        command("requests-hoplock-lock", "@WithLock on S3Mock: ");
        if (lock == null && lockS3 == null) {
            missing("jdbc-hoplock-lock", "store requests of @WithLock");
            return;
        }
        line("The harness of section 5, same PostgreSQL server, same pools and counting `DataSource`, in the same run of"
                + " the `jdbc` stage, with `@WithLock(name = \"bench-tick\", lockAtMostFor = \"10s\","
                + " lockAtLeastFor = \"90ms\")` on the job: ShedLock's settings of section 3, so that both take one"
                + " lock per run with the same bounds. hoplock's lock lives in the same table as its election"
                + " (`hoplock_bench_lease`, key `locks/bench-tick`); the election still runs (the starter always has"
                + " one), so its requests, about " + v(leaderOnly, "requests_per_hour", 0) + " per hour in the"
                + " `@LeaderOnly` column, are in the `@WithLock` count too; the requests on the lock record alone are"
                + " counted apart (a statement or an HTTP request whose key is `locks/...`). The S3 column is the same"
                + " job over the S3 test server of section 3 (`requests` stage); ShedLock's S3 provider"
                + " (`shedlock-provider-s3v2`) is not served at the ShedLock version of `benchmarks/pom.xml`, so"
                + " ShedLock is measured on PostgreSQL only.");
        line("");
        line("| | @WithLock (hoplock-jdbc) | @WithLock (hoplock-s3, S3Mock) | @LeaderOnly (hoplock-jdbc) | ShedLock"
                + " (PostgreSQL) |");
        line("|---|---|---|---|---|");
        lockRow("executions in the window (periods: " + m(lock != null ? lock : lockS3, "periods") + ")", lock,
                lockS3, leaderOnly, shedlock, "executions", 0);
        lockRow("executions closer than 50 ms to the previous one (a double run, or a late tick of one instance followed by its next on time: compare the executions with the periods)", lock, lockS3, leaderOnly, shedlock,
                "executions_closer_than_50ms", 0);
        lockRow("calls not run (lock held elsewhere / not the leader)", lock, lockS3, leaderOnly, shedlock,
                "skipped_calls", 0);
        lockRow("store requests in the window", lock, lockS3, leaderOnly, shedlock, "requests", 0);
        line("| requests by kind (`lockkey.*`: of them, on the lock record) | " + kinds(lock) + " | " + kinds(lockS3)
                + " | " + kinds(leaderOnly) + " | " + kinds(shedlock) + " |");
        lockRow("**requests per execution** (whole window)", lock, lockS3, leaderOnly, shedlock,
                "requests_per_execution", 2);
        // Counted apart for @WithLock only (a request on a key locks/...); the other columns take no named lock.
        lockRow("of them on the lock record", lock, lockS3, null, null, "lock_requests_per_execution", 2);
        lockRow("of them the election's and the pool's (`isValid`)", lock, lockS3, null, null,
                "other_requests_per_execution", 2);
        line("| requests per execution, median (min to max) over the window's slices | " + slices(lock) + " | "
                + slices(lockS3) + " | " + slices(leaderOnly) + " | " + slices(shedlock) + " |");
        lockRow("**requests per hour**, 3 instances (extrapolated from the window)", lock, lockS3, leaderOnly,
                shedlock, "requests_per_hour", 0);
        lockRow("added latency per execution, p50 (us, executed run minus ungated control run)", lock, lockS3,
                leaderOnly, shedlock, "added_latency_per_execution_us", 0);
        lockRow("mean time of one statement on the lock record, sent to answered (us)", lock, lockS3, leaderOnly,
                shedlock, "time.lockkey.jdbc.execute_us_mean", 0);
        line("| requests per hour by each instance | " + tables.perInstance("jdbc-requests-hoplock-jdbc-lock.csv", lock)
                + " | " + tables.perInstance("requests-hoplock-s3-lock.csv", lockS3) + " | "
                + tables.perInstance("jdbc-requests-hoplock-jdbc.csv", leaderOnly) + " | "
                + tables.perInstance("jdbc-requests-shedlock.csv", shedlock) + " |");
        line("");
        line("What a `@WithLock` run costs: the instance that runs the job writes its lock record once to take it,"
                + " conditional on the version it last saw (its own record, or a released one: no read first), and,"
                + " as the run ends before `lockAtLeastFor`, once more to expire at acquisition + 90 ms; each other"
                + " instance reads the record at each of its ticks and is refused. So the lock's own count is about"
                + " 2 + (instances - 1) per execution: measured " + v(lock, "lock_requests_per_execution", 2)
                + " on PostgreSQL and " + v(lockS3, "lock_requests_per_execution", 2) + " on S3Mock. Like ShedLock's,"
                + " the count grows with executions x instances: measured " + v(lock, "requests_per_execution", 2)
                + " requests per execution in all against ShedLock's " + v(shedlock, "requests_per_execution", 2)
                + " (which also counts each transaction's `commit`), and "
                + v(leaderOnly, "requests_per_execution", 2) + " for `@LeaderOnly`, whose requests per hour do not"
                + " depend on the schedule: a job that may always run on one instance is far cheaper with"
                + " `@LeaderOnly`. Executions per instance: `jdbc-requests-hoplock-jdbc-lock.csv` and"
                + " `requests-hoplock-s3-lock.csv`, with " + v(lock, "executions_closer_than_50ms", 0) + " and "
                + v(lockS3, "executions_closer_than_50ms", 0) + " executions closer than 50 ms to the previous one."
                + " Raw data: `benchmarks/results/jdbc-requests-hoplock-jdbc-lock*` and"
                + " `benchmarks/results/requests-hoplock-s3-lock*` (`.csv`, `.properties`).");
        line("");
    }

    private void lockRow(String label, @Nullable Properties lock, @Nullable Properties lockS3,
            @Nullable Properties leaderOnly, @Nullable Properties shedlock, String key, int decimals) {
        line("| " + label + " | " + v(lock, key, decimals) + " | " + v(lockS3, key, decimals) + " | "
                + v(leaderOnly, key, decimals) + " | " + v(shedlock, key, decimals) + " |");
    }
}
