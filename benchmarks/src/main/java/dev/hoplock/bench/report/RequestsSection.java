package dev.hoplock.bench.report;

import java.util.Properties;
import org.jspecify.annotations.Nullable;

import static dev.hoplock.bench.report.Fmt.m;
import static dev.hoplock.bench.report.Fmt.spread;
import static dev.hoplock.bench.report.Fmt.v;
import static dev.hoplock.bench.report.RequestTables.scheduledLatency;

/**
 * Section 3: store requests per gated execution and per hour, and the latency added per scheduled execution, hoplock
 * over S3 beside ShedLock over PostgreSQL on the same harness.
 */
final class RequestsSection extends Section {

    private final RequestTables tables = new RequestTables(page, results);

    RequestsSection(MarkdownPage page, ResultFiles results) {
        super(page, results);
    }

    void write(@Nullable Properties hoplock, @Nullable Properties shedlock) {
        line("## 3. Store requests per gated execution and per hour; added latency per execution");
        line("");
        command("requests-hoplock", "hoplock: ");
        command("requests-shedlock", "ShedLock: ");
        if (hoplock == null && shedlock == null) {
            missing("requests-hoplock", "the backend cost");
            return;
        }
        line("A job scheduled every 100 ms (`@Scheduled(fixedRate = 100)`) on three instances: three Spring Boot"
                + " application contexts in one JVM, started one after the other (so their schedules are out of phase,"
                + " as on separate machines), each with its own store client, connection pool and one scheduler thread."
                + " After a " + m(stages, "requests.warmup") + " s warm-up, everything is counted for a window of "
                + m(stages, "requests.seconds") + " s.");
        line("");
        line("- **hoplock** (`@LeaderOnly` on the job), S3 store on the S3 server, TTL "
                + (hoplock == null ? "-" : m(hoplock, "ttl")) + " (the starter's default; renew TTL/3, poll TTL/15)."
                + " Requests counted by an AWS SDK `ExecutionInterceptor` on the application's `S3Client` bean, which"
                + " the starter uses (`beforeTransmission`: every HTTP attempt, retries included).");
        line("- **ShedLock 7.10.1** (`@SchedulerLock(name, lockAtMostFor = 10 s, lockAtLeastFor = 90 ms)` on the job,"
                + " `@EnableSchedulerLock`, `JdbcTemplateLockProvider` with `usingDbTime()`), PostgreSQL on 127.0.0.1,"
                + " HikariCP pool of 2 per instance. Requests counted by a JDBC proxy under the pool"
                + " (`CountingDataSource`): every `execute*`, `commit`, `rollback` and `isValid` is one round trip"
                + " (`setAutoCommit` calls are counted apart: the PostgreSQL driver sends nothing for them here)."
                + " `lockAtLeastFor` just under the period keeps the out-of-phase instances from running the same"
                + " period twice, as ShedLock's documentation advises for short jobs.");
        line("");
        line("**Architectures differ.** ShedLock takes a lock per run: every instance asks the database at every tick"
                + " (the one that wins: UPDATE to lock, UPDATE to unlock, each in its own transaction; the others: one"
                + " UPDATE that matches no row), so its cost grows with executions x instances. hoplock holds a lease:"
                + " the leader renews every TTL/3 and followers read every TTL/15, whatever the number of gated"
                + " executions; the gate itself reads local state. Per hour with n instances: 3600/renew + (n-1) x"
                + " 3600/poll requests, here 3600/10 + 2 x 3600/2 = 3,960 at TTL 30 s, whether the job runs every"
                + " 100 ms or once an hour. So per execution hoplock is cheaper the more often the job runs, and the"
                + " per-hour figure is the one that does not depend on the schedule.");
        line("");
        line("| | hoplock (S3) | ShedLock (PostgreSQL) | ShedLock / hoplock |");
        line("|---|---|---|---|");
        tables.countRows(hoplock, shedlock);
        line("| requests before the window (start-up and warm-up: probe, first acquisition, first lock) | "
                + v(hoplock, "startup_requests", 0) + " | " + v(shedlock, "startup_requests", 0) + " | |");
        String[] latency = hoplock == null ? new String[] {"-", "-"} : scheduledLatency(hoplock, shedlock);
        line("| **added latency per execution**, p50 (executed run minus ungated control run) | " + latency[0] + " | "
                + v(shedlock, "added_latency_per_execution_us", 0) + " us | " + latency[1] + " |");
        line("| run time of an executed run beyond its body: p25 / p50 / p75 / p99 | " + spread(hoplock,
                "executed_overhead_us") + " | " + spread(shedlock, "executed_overhead_us") + " | |");
        line("| same for a skipped call on another instance | " + spread(hoplock, "skipped_overhead_us") + " | "
                + spread(shedlock, "skipped_overhead_us") + " | |");
        line("| same for the ungated control job (the harness's own cost) | " + spread(hoplock, "control_overhead_us")
                + " | " + spread(shedlock, "control_overhead_us") + " | |");
        line("| requests per hour by each instance (role) | " + tables.perInstance("requests-hoplock.csv", hoplock) + " | "
                + tables.perInstance("requests-shedlock.csv", shedlock) + " | |");
        line("| leader at the start / end of the window | " + (hoplock == null ? "-" : m(hoplock, "leaders_at_start")
                + " / " + m(hoplock, "leaders_at_end")) + " | - | |");
        line("");
        line("Latency is timed on the scheduler thread around the whole scheduled call (a `TaskDecorator`), minus the"
                + " body's own time; the ungated control job on the same scheduler gives the harness's floor. A job run"
                + " 10 times a second stays mostly in the interpreter and C1 code, hence microseconds here against"
                + " nanoseconds in the JMH figure. ShedLock's added latency is two round trips, each a transaction"
                + " whose commit waits for PostgreSQL's WAL flush to disk (`synchronous_commit=on`, the default), so"
                + " it depends on this machine's disk as much as on the network; it rises with other disk traffic"
                + " (see the load averages at the end). Raw data: `benchmarks/results/requests-*.csv`.");
        line("");
    }
}
