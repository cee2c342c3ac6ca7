package dev.hoplock.bench.report;

import java.util.Properties;
import org.jspecify.annotations.Nullable;

import static dev.hoplock.bench.report.Fmt.kinds;
import static dev.hoplock.bench.report.Fmt.m;
import static dev.hoplock.bench.report.Fmt.slices;
import static dev.hoplock.bench.report.Fmt.v;

/**
 * Section 9: store requests per execution of {@code @WithLock}, beside {@code @LeaderOnly} and ShedLock on the same
 * PostgreSQL.
 */
final class LockSection extends Section {

    private final RequestTables tables = new RequestTables(page, results);

    LockSection(MarkdownPage page, ResultFiles results) {
        super(page, results);
    }

    void write(@Nullable Properties lock, @Nullable Properties leaderOnly, @Nullable Properties shedlock) {
        line("## 9. Named locks: `@WithLock` next to `@LeaderOnly` and ShedLock, store requests per execution");
        line("");
        command("jdbc-hoplock-lock", "@WithLock: ");
        if (lock == null) {
            missing("jdbc-hoplock-lock", "store requests of @WithLock");
            return;
        }
        line("The harness of section 5, same PostgreSQL server, same pools and counting `DataSource`, in the same run of"
                + " the `jdbc` stage, with `@WithLock(name = \"bench-tick\", lockAtMostFor = \"10s\","
                + " lockAtLeastFor = \"90ms\")` on the job: ShedLock's settings of section 3, so that both take one"
                + " lock per run with the same bounds. hoplock's lock lives in the same table as its election"
                + " (`hoplock_bench_lease`, key `locks/bench-tick`); the election still runs (the starter always has"
                + " one), so its requests, about " + v(leaderOnly, "requests_per_hour", 0) + " per hour in the"
                + " `@LeaderOnly` column, are in the `@WithLock` count too.");
        line("");
        line("| | @WithLock (hoplock-jdbc) | @LeaderOnly (hoplock-jdbc) | ShedLock (PostgreSQL) |");
        line("|---|---|---|---|");
        lockRow("executions in the window (periods: " + m(lock, "periods") + ")", lock, leaderOnly, shedlock,
                "executions", 0);
        lockRow("executions closer than 50 ms to the previous one (a double run, or a late tick of one instance followed by its next on time: compare the executions with the periods)", lock, leaderOnly, shedlock,
                "executions_closer_than_50ms", 0);
        lockRow("calls not run (lock held elsewhere / not the leader)", lock, leaderOnly, shedlock, "skipped_calls",
                0);
        lockRow("store requests in the window", lock, leaderOnly, shedlock, "requests", 0);
        line("| requests by kind | " + kinds(lock) + " | " + kinds(leaderOnly) + " | " + kinds(shedlock) + " |");
        lockRow("**requests per execution** (whole window)", lock, leaderOnly, shedlock, "requests_per_execution", 2);
        line("| requests per execution, median (min to max) over the window's slices | " + slices(lock) + " | "
                + slices(leaderOnly) + " | " + slices(shedlock) + " |");
        lockRow("**requests per hour**, 3 instances (extrapolated from the window)", lock, leaderOnly, shedlock,
                "requests_per_hour", 0);
        lockRow("added latency per execution, p50 (us, executed run minus ungated control run)", lock, leaderOnly,
                shedlock, "added_latency_per_execution_us", 0);
        line("| requests per hour by each instance | " + tables.perInstance("jdbc-requests-hoplock-jdbc-lock.csv", lock)
                + " | " + tables.perInstance("jdbc-requests-hoplock-jdbc.csv", leaderOnly) + " | "
                + tables.perInstance("jdbc-requests-shedlock.csv", shedlock) + " |");
        line("");
        line("What a `@WithLock` run costs: the instance that runs the job reads and writes its lock record, and,"
                + " as the run ends before `lockAtLeastFor`, writes it once more to expire at acquisition + 90 ms;"
                + " each other instance reads the record at each of its ticks and is refused. So, like ShedLock's,"
                + " the count grows with executions x instances: measured " + v(lock, "requests_per_execution", 2)
                + " requests per execution against ShedLock's " + v(shedlock, "requests_per_execution", 2)
                + " (which also counts each transaction's `setAutoCommit` and `commit`), and "
                + v(leaderOnly, "requests_per_execution", 2) + " for `@LeaderOnly`, whose requests per hour do not"
                + " depend on the schedule: a job that may always run on one instance is far cheaper with"
                + " `@LeaderOnly`. The lock went from instance to instance (executions per instance in"
                + " `jdbc-requests-hoplock-jdbc-lock.csv`), with " + v(lock, "executions_closer_than_50ms", 0)
                + " executions closer than 50 ms to the previous one."
                + " Raw data: `benchmarks/results/jdbc-requests-hoplock-jdbc-lock*.csv` and `.properties`.");
        line("");
    }

    private void lockRow(String label, @Nullable Properties lock, @Nullable Properties leaderOnly,
            @Nullable Properties shedlock, String key,
            int decimals) {
        line("| " + label + " | " + v(lock, key, decimals) + " | " + v(leaderOnly, key, decimals) + " | "
                + v(shedlock, key, decimals) + " |");
    }
}
