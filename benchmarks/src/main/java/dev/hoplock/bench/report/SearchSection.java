package dev.hoplock.bench.report;

import java.util.Properties;
import org.jspecify.annotations.Nullable;

import static dev.hoplock.bench.report.Fmt.d;
import static dev.hoplock.bench.report.Fmt.f0;
import static dev.hoplock.bench.report.Fmt.f2;
import static dev.hoplock.bench.report.Fmt.kinds;
import static dev.hoplock.bench.report.Fmt.m;
import static dev.hoplock.bench.report.Fmt.v;

/**
 * Section 6: hoplock's Elasticsearch / OpenSearch store, its request counts beside the S3 store's and its failover
 * times beside section 1's.
 */
final class SearchSection extends Section {

    private final RequestTables tables = new RequestTables(page, results);

    SearchSection(MarkdownPage page, ResultFiles results) {
        super(page, results);
    }

    void write(@Nullable Properties es, @Nullable Properties s3, @Nullable Properties failoverEs,
            @Nullable Properties failoverS3) {
        line("## 6. hoplock's Elasticsearch / OpenSearch store");
        line("");
        command("es-hoplock", "");
        if (es == null) {
            missing("es-hoplock", "the Elasticsearch store's request count");
            return;
        }
        line("The harness of section 3 (a job every 100 ms on three Spring Boot contexts in one JVM, after a "
                + m(stages, "es.warmup") + " s warm-up, counted for " + m(stages, "es.window") + " s), with the store"
                + " on an OpenSearch 2.19.6 node. Each application has an Elasticsearch low-level client"
                + " (`Rest5Client`, the bean Spring Boot 4 configures from `spring.elasticsearch.uris`; built by the"
                + " application here so that an HTTP request interceptor counts every request it sends), and the"
                + " starter builds the store around it from `hoplock.backend=elasticsearch` and"
                + " `hoplock.elasticsearch.index`: one document per lease key, created with `op_type=create`, swapped"
                + " with `if_seq_no` and `if_primary_term`. TTL " + m(es, "ttl") + " (renew TTL/3, poll TTL/15),"
                + " `@LeaderOnly` on the job. Section 3's S3 figures are beside it for comparison.");
        line("");
        line("| | hoplock, Elasticsearch store (OpenSearch 2.19.6) | hoplock, S3 store (section 3) |");
        line("|---|---|---|");
        line("| executions in the window (periods: " + m(es, "periods") + ") | " + v(es, "executions", 0) + " | "
                + v(s3, "executions", 0) + " |");
        line("| executions closer than 50 ms to the previous one (a double run, or a late tick of one instance followed by its next on time: compare the executions with the periods) | "
                + v(es, "executions_closer_than_50ms", 0) + " | " + v(s3, "executions_closer_than_50ms", 0) + " |");
        line("| calls skipped on non-leaders | " + v(es, "skipped_calls", 0) + " | " + v(s3, "skipped_calls", 0)
                + " |");
        line("| store requests in the window | " + v(es, "requests", 0) + " | " + v(s3, "requests", 0) + " |");
        line("| requests by kind | " + kinds(es) + " | " + kinds(s3) + " |");
        line("| **requests per execution** (whole window) | " + v(es, "requests_per_execution", 3) + " | "
                + v(s3, "requests_per_execution", 3) + " |");
        line("| **requests per hour**, 3 instances (extrapolated from the window) | " + v(es, "requests_per_hour", 0)
                + " | " + v(s3, "requests_per_hour", 0) + " |");
        line("| requests per hour by each instance (role) | " + tables.perInstance("es-requests-hoplock-es.csv", es) + " | "
                + tables.perInstance("requests-hoplock.csv", s3) + " |");
        line("| requests before the window (start-up and warm-up, 3 instances) | " + v(es, "startup_requests", 0)
                + " | " + v(s3, "startup_requests", 0) + " |");
        line("| added latency per execution, p50 (executed run minus ungated control run) | "
                + v(es, "added_latency_per_execution_us", 1) + " us | " + v(s3, "added_latency_per_execution_us", 1)
                + " us |");
        line("| leader at the start / end of the window | " + m(es, "leaders_at_start") + " / "
                + m(es, "leaders_at_end") + " | " + m(s3, "leaders_at_start") + " / " + m(s3, "leaders_at_end")
                + " |");
        line("");
        line("A renewal is one conditional `PUT` of the lease document and a follower's poll one `GET`, so the"
                + " requests per hour follow the formula of section 3, 3600/renew + (n-1) x 3600/poll, 3,960 at TTL"
                + " 30 s, whatever the schedule of the job. Before the window, each instance runs the store's start-up"
                + " check once (`hoplock.elasticsearch.check-on-start` when the context starts; the elector's own"
                + " verification before it campaigns answers from that check without a request): 13 requests: `GET /`,"
                + " `HEAD` of the index (the first"
                + " instance also creates it) and 11 for the compare-and-swap probe on a side document (a refused swap"
                + " or delete reads the document once more to tell a lost race from a missing document); then the"
                + " followers' polls of the warm-up. The node"
                + " runs in the benchmark's JVM, on the same 2 cores as the three applications, so the latency row is"
                + " a local figure; the counts do not depend on it. ShedLock's Elasticsearch and OpenSearch providers"
                + " are not part of this run (section 5 compares the two libraries on one store). Raw data: `benchmarks/results/es-requests-*.csv` and"
                + " `.properties`.");
        line("");
        line("### Failover on OpenSearch");
        line("");
        command("es-failover", "");
        if (failoverEs == null) {
            missing("es-failover", "failover on the Elasticsearch store");
            return;
        }
        line("Section 1's harness and settings (three electors, each in its own JVM, TTL " + f0(d(failoverEs, "ttl_ms"))
                + " ms, renew " + f0(d(failoverEs, "renew_ms")) + " ms, poll " + f0(d(failoverEs, "poll_ms"))
                + " ms), with every elector on hoplock's Elasticsearch store over its own JDK HTTP client, on one"
                + " index of the node (which runs in the harness's JVM). The harness runs the store's start-up check"
                + " once on the index; the children skip it, as the S3 children skip the probe. JVMs spawned: "
                + m(failoverEs, "jvms_spawned") + "; leases lost unexpectedly: " + m(failoverEs, "unexpected_losses")
                + "; graceful releases that did not take effect: " + m(failoverEs, "graceful_release_not_effective")
                + ".");
        line("");
        line("| | OpenSearch: p50 | p99 | min | max | S3 (section 1): p50 | p99 |");
        line("|---|---|---|---|---|---|---|");
        for (String[] row : new String[][] {{"kill -9 to follower's Acquired", "crash"},
                {"dead leader's last renewal to Acquired", "crash_since_write"},
                {"SIGTERM to follower's Acquired", "graceful"},
                {"release answered to Acquired", "graceful_since_release"}}) {
            String key = row[1];
            line("| " + row[0] + " | " + f0(d(failoverEs, key + "_p50_ms")) + " ms | "
                    + f0(d(failoverEs, key + "_p99_ms")) + " ms | " + f0(d(failoverEs, key + "_min_ms")) + " ms | "
                    + f0(d(failoverEs, key + "_max_ms")) + " ms | " + (failoverS3 == null ? "-"
                    : f0(d(failoverS3, key + "_p50_ms")) + " ms | " + f0(d(failoverS3, key + "_p99_ms")) + " ms")
                    + " |");
        }
        line("");
        double ttl = d(failoverEs, "ttl_ms");
        line("The bound of section 1 holds on any store: no takeover before one TTL after the dead leader's last"
                + " renewal; measured " + f2(d(failoverEs, "crash_since_write_min_ms") / ttl) + " to "
                + f2(d(failoverEs, "crash_since_write_max_ms") / ttl) + " x TTL here. A lease lost unexpectedly is"
                + " one a leader gave up by itself when no renewal succeeded before its deadline (its children's log"
                + " in `benchmarks/target/bench-logs/es-failover-*.err` gives the cause): it stops leader work at that"
                + " deadline and another elector takes over after the TTL, as after a crash. The machine was loaded"
                + " while this section ran (1-minute load average " + m(stages, "es-hoplock.load") + " during the"
                + " request count, " + m(stages, "es-failover.load") + " during the failover runs, on 2 cores, with"
                + " the node in the harness's JVM), against " + m(stages, "failover.load") + " for section 1: compare"
                + " the tails with care; the request counts do not depend on the load. Raw data:"
                + " `benchmarks/results/es-failover-*.csv` and `.properties`.");
    }
}
