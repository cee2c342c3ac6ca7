package dev.hoplock.bench.requests;

import dev.hoplock.bench.common.Results;
import dev.hoplock.bench.common.Stats;
import dev.hoplock.elasticsearch.node.OpenSearchNode;
import dev.hoplock.jdbc.Database;
import dev.hoplock.jdbc.JdbcSchema;
import dev.hoplock.s3.server.S3MockServer;
import dev.hoplock.spring.leader.HoplockElections;
import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Backend requests per gated execution and per hour: a job every 100 ms on three instances (three Spring Boot
 * application contexts in this JVM, each with its own store client and scheduler) for a fixed time, with hoplock over
 * the test S3 server ({@code hoplock}), hoplock's JDBC store over PostgreSQL ({@code hoplock-jdbc}), hoplock's
 * Elasticsearch store over the in-JVM OpenSearch 2.19.6 node of hoplock-elasticsearch's tests ({@code hoplock-es}) or
 * ShedLock over PostgreSQL ({@code shedlock}), or {@code @WithLock} on hoplock's JDBC store
 * ({@code hoplock-jdbc-lock}) or on the test S3 server ({@code hoplock-s3-lock}; ShedLock's S3 provider,
 * {@code shedlock-provider-s3v2}, is not served at the ShedLock version of this module, so it has no S3 twin here).
 * Requests on the lock record ({@code locks/...}) are counted again apart ({@code lockkey.*}, left out of the totals).
 * Requests are counted at the client: an SDK
 * {@code ExecutionInterceptor} on the S3 client, a counting {@code DataSource} under the JDBC pool, an HTTP request
 * interceptor in the Elasticsearch low-level client.
 *
 * <p>Sequence: start the three contexts one after the other (so their 100 ms schedules are out of phase, as on
 * separate machines), wait for a leader (hoplock), warm up, then count for the window, then close.
 *
 * <p>Argument: {@code hoplock}, {@code hoplock-jdbc}, {@code hoplock-es}, {@code hoplock-jdbc-lock},
 * {@code hoplock-s3-lock} or
 * {@code shedlock}. System properties:
 * {@code bench.requests.prefix} (the result files' prefix, default {@code requests-}: files
 * {@code <prefix><variant>.properties} and {@code .csv}), {@code bench.requests.seconds} (window, default
 * 60), {@code bench.requests.warmup} (seconds, 5), {@code bench.requests.ttl} (hoplock TTL, default 30s: the
 * starter's default), {@code bench.jdbc.url} (default {@code jdbc:postgresql://127.0.0.1:5432/test}),
 * {@code bench.jdbc.user} ({@code postgres}), {@code bench.jdbc.password} (empty).
 */
public final class RequestsBench {

    private static final int INSTANCES = 3;
    private static final Map<String, RequestCounter> COUNTERS = new ConcurrentHashMap<>();

    private RequestsBench() {
    }

    static RequestCounter counter(String instance) {
        return COUNTERS.computeIfAbsent(instance, i -> new RequestCounter());
    }

    public static void main(String[] args) throws Exception {
        String variant = args.length > 0 ? args[0] : "hoplock";
        int seconds = Integer.getInteger("bench.requests.seconds", 60);
        int warmup = Integer.getInteger("bench.requests.warmup", 5);
        String ttl = System.getProperty("bench.requests.ttl", "30s");
        String jdbcUrl = System.getProperty("bench.jdbc.url", "jdbc:postgresql://127.0.0.1:5432/test");
        String jdbcUser = System.getProperty("bench.jdbc.user", "postgres");
        String jdbcPassword = System.getProperty("bench.jdbc.password", "");
        String table = "shedlock_bench";
        String hoplockTable = "hoplock_bench_lease";
        String prefix = System.getProperty("bench.requests.prefix", "requests-");

        Map<String, Object> common = new LinkedHashMap<>();
        common.put("spring.main.banner-mode", "off");
        common.put("logging.level.root", "WARN");
        Class<?> app;
        if (variant.equals("hoplock") || variant.equals("hoplock-s3-lock")) {
            S3MockServer server = S3MockServer.shared();
            app = variant.equals("hoplock") ? BenchApps.HoplockApp.class : BenchApps.HoplockS3LockApp.class;
            common.put("hoplock.backend", "s3");
            common.put("hoplock.s3.bucket", server.bucket());
            common.put("hoplock.s3.prefix", "bench/requests-" + UUID.randomUUID().toString().substring(0, 8) + "/");
            common.put("hoplock.ttl", ttl);
            common.put("bench.s3.endpoint", server.endpoint().toString());
        } else if (variant.equals("hoplock-jdbc") || variant.equals("hoplock-jdbc-lock")) {
            prepareLeaseTable(jdbcUrl, jdbcUser, jdbcPassword, hoplockTable);
            app = variant.equals("hoplock-jdbc") ? BenchApps.HoplockJdbcApp.class : BenchApps.HoplockJdbcLockApp.class;
            common.put("hoplock.ttl", ttl);
            common.put("bench.jdbc.url", jdbcUrl);
            common.put("bench.jdbc.user", jdbcUser);
            common.put("bench.jdbc.password", jdbcPassword);
            common.put("bench.hoplock.table", hoplockTable);
        } else if (variant.equals("hoplock-es")) {
            // The node logs through log4j's core; Boot's log4j-to-slf4j bridge is on the class path too.
            if (System.getProperty("log4j.provider") == null) {
                System.setProperty("log4j.provider", "org.apache.logging.log4j.core.impl.Log4jProvider");
            }
            OpenSearchNode node = OpenSearchNode.shared();
            app = BenchApps.HoplockSearchApp.class;
            common.put("hoplock.backend", "elasticsearch");
            common.put("hoplock.elasticsearch.index", "hoplock-bench-" + UUID.randomUUID().toString().substring(0, 8));
            common.put("hoplock.ttl", ttl);
            common.put("bench.es.endpoint", node.endpoint().toString());
        } else if (variant.equals("shedlock")) {
            prepareTable(jdbcUrl, jdbcUser, jdbcPassword, table);
            app = BenchApps.ShedlockApp.class;
            common.put("hoplock.enabled", "false");
            common.put("bench.jdbc.url", jdbcUrl);
            common.put("bench.jdbc.user", jdbcUser);
            common.put("bench.jdbc.password", jdbcPassword);
            common.put("bench.shedlock.table", table);
        } else {
            throw new IllegalArgumentException("variant must be hoplock, hoplock-jdbc, hoplock-es, hoplock-jdbc-lock,"
                    + " hoplock-s3-lock or shedlock, was "
                    + variant);
        }

        List<ConfigurableApplicationContext> contexts = new ArrayList<>();
        List<String> names = new ArrayList<>();
        Map<String, Long> startupRequests = new LinkedHashMap<>();
        try {
            for (int i = 1; i <= INSTANCES; i++) {
                String instance = "i" + i;
                Map<String, Object> properties = new LinkedHashMap<>(common);
                properties.put("bench.instance", instance);
                properties.put("spring.application.name", "bench-" + variant + "-" + instance);
                if (isHoplock(variant)) {
                    properties.put("hoplock.owner", instance);
                    properties.put("hoplock.locks.owner", instance);
                }
                contexts.add(new SpringApplicationBuilder(app)
                        .web(WebApplicationType.NONE)
                        .bannerMode(Banner.Mode.OFF)
                        .properties(properties)
                        .run());
                names.add(instance);
            }
            if (isHoplock(variant)) {
                awaitLeader(contexts, 60_000);
            }
            Thread.sleep(warmup * 1000L);

            Map<String, Map<String, Long>> before = new LinkedHashMap<>();
            Map<String, Map<String, Long>> nanosBefore = new LinkedHashMap<>();
            for (String name : names) {
                before.put(name, counter(name).snapshot());
                nanosBefore.put(name, counter(name).nanos());
                startupRequests.put(name, total(variant, counter(name).snapshot()));
            }
            List<String> leadersBefore = leaders(variant, contexts, names);
            JobStats.measuring(true);
            long start = System.nanoTime();
            Thread.sleep(seconds * 1000L);
            JobStats.measuring(false);
            double window = (System.nanoTime() - start) / 1e9;
            List<String> leadersAfter = leaders(variant, contexts, names);
            Map<String, Map<String, Long>> counted = new LinkedHashMap<>();
            Map<String, Long> timed = new LinkedHashMap<>();
            for (String name : names) {
                counted.put(name, RequestCounter.difference(counter(name).snapshot(),
                        Objects.requireNonNull(before.get(name), "counted before the window")));
                RequestCounter.difference(counter(name).nanos(),
                        Objects.requireNonNull(nanosBefore.get(name), "timed before the window"))
                        .forEach((kind, nanos) -> timed.merge(kind, nanos, Long::sum));
            }
            report(prefix, variant, names, counted, timed, startupRequests, window, leadersBefore, leadersAfter, ttl,
                    start, start + Math.round(window * 1e9));
        } finally {
            for (int i = contexts.size() - 1; i >= 0; i--) {
                contexts.get(i).close();
            }
            if (variant.equals("hoplock-es")) {
                OpenSearchNode.stopShared(); // its threads would keep the JVM alive
            }
        }
    }

    private static boolean isHoplock(String variant) {
        return variant.startsWith("hoplock");
    }

    private static void report(String prefix, String variant, List<String> names, Map<String, Map<String, Long>> counted,
            Map<String, Long> timed, Map<String, Long> startupRequests, double window, List<String> leadersBefore, List<String> leadersAfter,
            String ttl, long windowStart, long windowEnd) {
        List<List<?>> rows = new ArrayList<>();
        List<List<?>> runRows = new ArrayList<>();
        List<Double> executedOverhead = new ArrayList<>();
        List<Double> skippedOverhead = new ArrayList<>();
        List<Double> controlOverhead = new ArrayList<>();
        List<Long> executionStarts = new ArrayList<>();
        long totalRequests = 0;
        long totalExecutions = 0;
        long totalSkipped = 0;
        Map<String, Long> byKind = new LinkedHashMap<>();
        for (String name : names) {
            JobStats stats = JobStats.of(name);
            long executed = 0;
            long skipped = 0;
            long control = 0;
            for (long[] run : stats.runs()) {
                JobStats.Kind kind = JobStats.Kind.values()[(int) run[0]];
                double overheadMicros = run[1] / 1e3;
                switch (kind) {
                    case EXECUTED -> {
                        executed++;
                        executedOverhead.add(overheadMicros);
                        executionStarts.add(run[2]);
                    }
                    case SKIPPED -> {
                        skipped++;
                        skippedOverhead.add(overheadMicros);
                    }
                    case CONTROL -> {
                        control++;
                        controlOverhead.add(overheadMicros);
                    }
                }
                runRows.add(List.of(name, kind, run[1], (run[2] - windowStart) / 1_000_000));
            }
            Map<String, Long> requests = Objects.requireNonNull(counted.get(name), "counted for every name");
            long instanceTotal = total(variant, requests);
            totalRequests += instanceTotal;
            totalExecutions += executed;
            totalSkipped += skipped;
            requests.forEach((kind, count) -> byKind.merge(kind, count, Long::sum));
            String role = isHoplock(variant) && !variant.endsWith("-lock")
                    ? (leadersBefore.contains(name) ? "leader" : "follower") : "lock per run";
            rows.add(List.of(name, role, executed, skipped, control, instanceTotal,
                    String.join(" ", requests.entrySet().stream().map(e -> e.getKey() + ":" + e.getValue()).toList())));
        }
        executionStarts.sort(Comparator.naturalOrder());
        // The window in slices of about 10 s: requests per execution in each, for the spread.
        int slices = Math.max(1, (int) Math.round(window / 10));
        long sliceNanos = (windowEnd - windowStart) / slices;
        long[] sliceRequests = new long[slices];
        long[] sliceExecutions = new long[slices];
        for (String name : names) {
            for (RequestCounter.Sent request : counter(name).sent()) {
                int slice = (int) ((request.nanos() - windowStart) / sliceNanos);
                if (request.nanos() >= windowStart && slice < slices
                        && total(variant, Map.of(request.kind(), 1L)) == 1) {
                    sliceRequests[slice]++;
                }
            }
        }
        for (long executionStart : executionStarts) {
            int slice = (int) ((executionStart - windowStart) / sliceNanos);
            if (executionStart >= windowStart && slice < slices) {
                sliceExecutions[slice]++;
            }
        }
        List<Double> perExecutionBySlice = new ArrayList<>();
        List<List<?>> sliceRows = new ArrayList<>();
        for (int i = 0; i < slices; i++) {
            double ratio = sliceExecutions[i] == 0 ? Double.NaN : (double) sliceRequests[i] / sliceExecutions[i];
            if (sliceExecutions[i] > 0) {
                perExecutionBySlice.add(ratio);
            }
            sliceRows.add(List.of(i, sliceNanos / 1e9, sliceExecutions[i], sliceRequests[i], ratio));
        }
        Results.writeCsv(prefix + variant + "-slices.csv", List.of("slice", "seconds", "executions", "requests",
                "requests_per_execution"), sliceRows);
        int closeRuns = 0;
        for (int i = 1; i < executionStarts.size(); i++) {
            if (executionStarts.get(i) - executionStarts.get(i - 1) < 50_000_000L) {
                closeRuns++;
            }
        }
        Results.writeCsv(prefix + variant + ".csv", List.of("instance", "role", "executed", "skipped",
                "control_runs", "requests", "requests_by_kind"), rows);
        Results.writeCsv(prefix + variant + "-runs.csv", List.of("instance", "kind", "overhead_ns",
                "start_ms"), runRows);

        Stats executedStats = Stats.of(executedOverhead);
        Stats skippedStats = Stats.of(skippedOverhead);
        Stats controlStats = Stats.of(controlOverhead);
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("variant", variant);
        summary.put("instances", names.size());
        summary.put("window_s", window);
        summary.put("period_ms", 100);
        summary.put("ttl", isHoplock(variant) ? ttl : "-");
        summary.put("executions", totalExecutions);
        summary.put("skipped_calls", totalSkipped);
        summary.put("periods", Math.round(window * 10));
        summary.put("executions_closer_than_50ms", closeRuns);
        summary.put("requests", totalRequests);
        byKind.forEach((kind, count) -> summary.put("requests." + kind, count));
        summary.put("requests_per_execution", totalExecutions == 0 ? Double.NaN : (double) totalRequests / totalExecutions);
        summary.put("requests_per_hour", totalRequests / window * 3600);
        // The requests on the lock record (key locks/...), apart from the election's and the pool's own.
        long lockRequests = byKind.entrySet().stream().filter(e -> e.getKey().startsWith("lockkey."))
                .mapToLong(Map.Entry::getValue).sum();
        if (!variant.endsWith("-lock")) {
            lockRequests = 0; // no named lock in this variant: nothing to count apart
        }
        summary.put("lock_requests", lockRequests);
        summary.put("lock_requests_per_execution", totalExecutions == 0 ? Double.NaN
                : (double) lockRequests / totalExecutions);
        if (variant.endsWith("-lock")) {
            summary.put("other_requests_per_execution", totalExecutions == 0 ? Double.NaN
                    : (double) (totalRequests - lockRequests) / totalExecutions);
        }
        for (Map.Entry<String, Long> time : timed.entrySet()) {
            long count = byKind.getOrDefault(time.getKey(), 0L);
            summary.put("time." + time.getKey() + "_us_mean", count == 0 ? Double.NaN : time.getValue() / 1e3 / count);
            summary.put("time." + time.getKey() + "_us_per_execution", totalExecutions == 0 ? Double.NaN
                    : time.getValue() / 1e3 / totalExecutions);
        }
        Stats bySlice = Stats.of(perExecutionBySlice);
        summary.put("slices", slices);
        summary.put("requests_per_execution_slice_p50", bySlice.median());
        summary.put("requests_per_execution_slice_min", bySlice.min());
        summary.put("requests_per_execution_slice_max", bySlice.max());
        summary.put("executions_per_hour", totalExecutions / window * 3600);
        summary.put("startup_requests", startupRequests.values().stream().mapToLong(Long::longValue).sum());
        summary.put("leaders_at_start", String.join(" ", leadersBefore));
        summary.put("leaders_at_end", String.join(" ", leadersAfter));
        putStats(summary, "executed_overhead_us", executedStats);
        putStats(summary, "skipped_overhead_us", skippedStats);
        putStats(summary, "control_overhead_us", controlStats);
        summary.put("added_latency_per_execution_us", executedStats.median() - controlStats.median());
        summary.put("added_latency_per_skip_us", skippedStats.median() - controlStats.median());
        Results.writeSummary(prefix + variant + ".properties", summary);
        System.out.printf("%s: %d executions, %d skipped calls, %d requests in %.1f s: %.2f requests/execution,"
                        + " %.0f requests/hour; added latency per execution %.1f us (p50), per skipped call %.1f us%n",
                variant, totalExecutions, totalSkipped, totalRequests, window,
                totalExecutions == 0 ? Double.NaN : (double) totalRequests / totalExecutions,
                totalRequests / window * 3600, executedStats.median() - controlStats.median(),
                skippedStats.median() - controlStats.median());
        System.out.println("  requests by kind: " + byKind + "; leaders " + leadersBefore + " -> " + leadersAfter);
        System.out.printf("  on the lock record: %d requests, %.2f per execution; time in statements by kind: %s%n",
                lockRequests, totalExecutions == 0 ? Double.NaN : (double) lockRequests / totalExecutions, timed);
    }

    private static void putStats(Map<String, Object> summary, String name, Stats stats) {
        summary.put(name + "_p50", stats.median());
        summary.put(name + "_p25", stats.percentile(25));
        summary.put(name + "_p75", stats.percentile(75));
        summary.put(name + "_p99", stats.p99());
        summary.put(name + "_min", stats.min());
        summary.put(name + "_max", stats.max());
        summary.put(name + "_n", stats.count());
    }

    /**
     * Requests that reach the store: S3 HTTP requests, Elasticsearch / OpenSearch HTTP requests, or JDBC calls that
     * talk to the server.
     */
    static long total(String variant, Map<String, Long> counts) {
        long sum = 0;
        for (Map.Entry<String, Long> entry : counts.entrySet()) {
            String kind = entry.getKey();
            if (kind.startsWith("s3.") || kind.startsWith("es.") || kind.equals("jdbc.execute") || kind.equals("jdbc.commit")
                    || kind.equals("jdbc.rollback") || kind.equals("jdbc.isValid")) {
                sum += entry.getValue();
            }
        }
        return sum;
    }

    private static List<String> leaders(String variant, List<ConfigurableApplicationContext> contexts,
            List<String> names) {
        List<String> leaders = new ArrayList<>();
        if (!isHoplock(variant)) {
            return leaders;
        }
        for (int i = 0; i < contexts.size(); i++) {
            if (contexts.get(i).getBean(HoplockElections.class).getDefault().isLeader()) {
                leaders.add(names.get(i));
            }
        }
        return leaders;
    }

    private static void awaitLeader(List<ConfigurableApplicationContext> contexts, long timeoutMs)
            throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMs;
        while (System.currentTimeMillis() < deadline) {
            for (ConfigurableApplicationContext context : contexts) {
                if (context.getBean(HoplockElections.class).getDefault().isLeader()) {
                    return;
                }
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException("no leader within " + timeoutMs + " ms");
    }

    /** hoplock's lease table, from the DDL the hoplock-jdbc jar ships for PostgreSQL, emptied. */
    private static void prepareLeaseTable(String url, String user, String password, String table)
            throws SQLException {
        try (Connection connection = DriverManager.getConnection(url, user, password);
             Statement statement = connection.createStatement()) {
            statement.execute(JdbcSchema.leaseTableDdl(Database.POSTGRESQL, table));
            statement.execute("DELETE FROM " + table);
        }
    }

    private static void prepareTable(String url, String user, String password, String table) throws SQLException {
        try (Connection connection = DriverManager.getConnection(url, user, password);
             Statement statement = connection.createStatement()) {
            // The table ShedLock's documentation gives for PostgreSQL.
            statement.execute("CREATE TABLE IF NOT EXISTS " + table + " (name VARCHAR(64) NOT NULL,"
                    + " lock_until TIMESTAMP NOT NULL, locked_at TIMESTAMP NOT NULL, locked_by VARCHAR(255) NOT NULL,"
                    + " PRIMARY KEY (name))");
            statement.execute("DELETE FROM " + table);
        }
    }
}
