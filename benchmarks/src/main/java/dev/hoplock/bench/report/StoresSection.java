package dev.hoplock.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.jspecify.annotations.Nullable;

import static dev.hoplock.bench.report.Fmt.d;
import static dev.hoplock.bench.report.Fmt.f0;
import static dev.hoplock.bench.report.Fmt.f2;
import static dev.hoplock.bench.report.Fmt.m;
import static dev.hoplock.bench.report.Fmt.v;

/**
 * Section 10: the Redis, NATS, Azure Blob and DynamoDB stores, from the {@code stores} stage's
 * {@code store-<store>.properties} (written by each store module's figures test through {@code StoreFigures}): one
 * table beside the S3, OpenSearch and JDBC figures of sections 1, 3, 5 and 6, then a table per store. A store whose
 * file is missing is reported as not measured; a key missing from a file (its test failed half-way) shows as "-".
 */
final class StoresSection extends Section {

    /** The stores of the stage, in the report's order: file name part, heading. */
    static final List<String[]> STORES = List.of(new String[] {"redis", "Redis"},
            new String[] {"nats", "NATS JetStream KV"}, new String[] {"azure-blob", "Azure Blob"},
            new String[] {"dynamodb", "DynamoDB"});

    StoresSection(MarkdownPage page, ResultFiles results) {
        super(page, results);
    }

    /** The results of one store, or {@code null} when its stage wrote none. */
    static @Nullable Properties load(ResultFiles results, String store) {
        return results.load("store-" + store + ".properties");
    }

    void write(@Nullable Properties failoverS3, @Nullable Properties failoverEs, @Nullable Properties requestsS3,
            @Nullable Properties requestsEs, @Nullable Properties requestsJdbc) {
        line("## 10. Redis, NATS, Azure Blob and DynamoDB stores");
        line("");
        line("Each store module's figures test (`RedisFailoverFigures`, `NatsFailoverFigures`,"
                + " `AzureBlobFailoverFigures`, `DynamoDbFailoverFigures`, run by Maven with `-Pfailover-figures`),"
                + " over one server or emulator that the test starts on this machine. Failover: `FailoverFigures` of"
                + " `hoplock-test`, three elector JVMs at TTL 2,000 ms (renew 666 ms, poll 133 ms, section 1's"
                + " settings), then per repetition the leader's JVM is stopped at a random phase of its renewal cycle,"
                + " first SIGKILL (no release) and then as many times SIGTERM (the shutdown hook releases), and the time"
                + " is taken until another JVM's first `isLeader()` check that says yes (section 1 takes it until the"
                + " follower's `Acquired` event, a few microseconds earlier). Requests: `RequestCount` of"
                + " `hoplock-test`, three electors in one JVM at TTL 30 s (the starter's default, as in sections 3, 5"
                + " and 6), counted over a window after a leader exists and every elector has verified the store,"
                + " extrapolated to an hour; what is counted is the store's requests as the server or a proxy in front"
                + " of it sees them, per store below. The formula of section 3, 3600/renew + (n-1) x 3600/poll, gives"
                + " 3,960 per hour at TTL 30 s.");
        line("");
        line("| | S3 (S3Mock, sections 1 and 3) | OpenSearch 2.19.6 (section 6) | JDBC, PostgreSQL (section 5) | "
                + String.join(" | ", STORES.stream().map(s -> s[1]).toList()) + " |");
        line("|---|---|---|---|" + "---|".repeat(STORES.size()));
        List<Properties> all = new ArrayList<>();
        for (String[] store : STORES) {
            Properties p = load(results, store[0]);
            all.add(p == null ? new Properties() : p);
        }
        line("| server or emulator | S3Mock | OpenSearch 2.19.6 | " + m(results.machine(), "pg_version") + " | "
                + cells(all, p -> m(p, "server_version")) + " |");
        line("| kill -9 to the next leader, p50 / p99 | " + pair(failoverS3, "crash") + " | "
                + pair(failoverEs, "crash") + " | not measured | " + cells(all, p -> pair(p, "crash")) + " |");
        line("| dead leader's last renewal to the next leader, p50 / p99 (never below the TTL) | "
                + pair(failoverS3, "crash_since_write") + " | " + pair(failoverEs, "crash_since_write")
                + " | not measured | " + cells(all, p -> pair(p, "crash_since_write")) + " |");
        line("| SIGTERM (release) to the next leader, p50 / p99 | " + pair(failoverS3, "graceful") + " | "
                + pair(failoverEs, "graceful") + " | not measured | " + cells(all, p -> pair(p, "graceful")) + " |");
        line("| repetitions of each kind of stop | " + m(failoverS3, "crash_reps") + " | "
                + m(failoverEs, "crash_reps") + " | - | " + cells(all, p -> m(p, "reps")) + " |");
        line("| **store requests per hour**, 3 instances at TTL 30 s | " + v(requestsS3, "requests_per_hour", 0) + " | "
                + v(requestsEs, "requests_per_hour", 0) + " | " + v(requestsJdbc, "requests_per_hour", 0) + " | "
                + cells(all, p -> v(p, "requests_per_hour", 0)) + " |");
        line("| 1-minute load average during the failover runs (start to end, 2 cores) | "
                + m(stages, "failover.load") + " | " + m(stages, "es-failover.load") + " | - | "
                + cells(all, p -> m(p, "failover_load_start") + " to " + m(p, "failover_load_end")) + " |");
        line("");
        line("The figures of one column were taken at one time, under the load given; compare the columns with the"
                + " load in mind (2 shared cores). A \"-\" is a figure the stage did not write.");
        line("");
        for (String[] store : STORES) {
            writeStore(store[0], store[1]);
        }
    }

    private void writeStore(String store, String name) {
        line("### " + name + " store");
        line("");
        String stage = "stores-" + store;
        command(stage, "");
        Properties p = load(results, store);
        if (p == null) {
            missing(stage, "the " + name + " store's failover and request figures");
            return;
        }
        if (p.getProperty("crash_p50_ms") == null) {
            line("Failover: not measured (the stage wrote no failover figures; see `benchmarks/target/bench-logs/"
                    + stage + ".log`).");
            line("");
        } else {
            line("Over " + m(p, "server_version") + ", TTL " + f0(d(p, "ttl_ms")) + " ms (renew " + f0(d(p, "renew_ms"))
                    + " ms, poll " + f0(d(p, "poll_ms")) + " ms), " + m(p, "reps") + " SIGKILLs and " + m(p, "reps")
                    + " SIGTERMs of the leader's JVM; 1-minute load average " + m(p, "failover_load_start") + " to "
                    + m(p, "failover_load_end") + ".");
            line("");
            if (d(p, "reps") < 30) {
                line("A short run (the default is 30 of each): with so few repetitions the p99 is the largest of them,"
                        + " and the figures are for checking the harness, not for comparing stores.");
                line("");
            }
            line("| | p50 | p99 | min | max |");
            line("|---|---|---|---|---|");
            row(p, "SIGKILL to the next leader", "crash");
            row(p, "dead leader's last renewal to the next leader", "crash_since_write");
            row(p, "SIGTERM (release) to the next leader", "graceful");
            line("");
            double ttl = d(p, "ttl_ms");
            line("No takeover before one TTL after the dead leader's last renewal: measured "
                    + f2(d(p, "crash_since_write_min_ms") / ttl) + " to " + f2(d(p, "crash_since_write_max_ms") / ttl)
                    + " x TTL (the test fails below 1).");
            line("");
        }
        if (p.getProperty("requests") == null) {
            line("Store requests: not measured (the stage wrote no request count; see `benchmarks/target/bench-logs/"
                    + stage + ".log`).");
        } else {
            List<String> kinds = new ArrayList<>();
            for (String key : p.stringPropertyNames().stream().sorted().toList()) {
                if (key.startsWith("requests.")) {
                    kinds.add(key.substring("requests.".length()) + " " + p.getProperty(key));
                }
            }
            line("Store requests of three instances at TTL " + f0(d(p, "requests_ttl_ms") / 1000) + " s: "
                    + v(p, "requests", 0) + " in " + m(p, "requests_window_s") + " s, **" + v(p, "requests_per_hour", 0)
                    + " per hour**" + (kinds.isEmpty() ? "" : " (by kind: " + String.join(", ", kinds) + ")")
                    + "; 1-minute load average " + m(p, "requests_load_start") + " to " + m(p, "requests_load_end")
                    + ". Counted: " + m(p, "requests_counted") + "."
                    + (d(p, "requests_window_s") < 60 ? " A short window (the default is 60 s): a few renewals and"
                    + " polls, extrapolated." : ""));
        }
        line("");
    }

    private void row(Properties p, String label, String key) {
        line("| " + label + " | " + ms(p, key + "_p50_ms") + " | " + ms(p, key + "_p99_ms") + " | "
                + ms(p, key + "_min_ms") + " | " + ms(p, key + "_max_ms") + " |");
    }

    private static String ms(Properties p, String key) {
        return p.getProperty(key) == null ? "-" : f0(d(p, key)) + " ms";
    }

    /** "p50 / p99 ms" of {@code key}, or "-". */
    static String pair(@Nullable Properties p, String key) {
        if (p == null || p.getProperty(key + "_p50_ms") == null) {
            return "-";
        }
        return f0(d(p, key + "_p50_ms")) + " / " + f0(d(p, key + "_p99_ms")) + " ms";
    }

    private static String cells(List<Properties> stores, java.util.function.Function<Properties, String> cell) {
        return String.join(" | ", stores.stream().map(p -> p.isEmpty() ? "not measured" : cell.apply(p)).toList());
    }
}
