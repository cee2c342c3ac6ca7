package dev.hoplock.bench.failover;

import dev.hoplock.bench.common.Results;
import dev.hoplock.bench.common.Stats;
import dev.hoplock.bench.failover.ElectorProcess.Event;
import dev.hoplock.elasticsearch.ElasticsearchBackend;
import dev.hoplock.elasticsearch.node.OpenSearchNode;
import dev.hoplock.s3.server.S3MockServer;

import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * Failover after a crash and graceful handover, with every elector in its own JVM ({@link ElectorChild}) over the test
 * S3 server (S3Mock, one request thread, on 127.0.0.1), or, with {@code -Dbench.failover.store=es}, over hoplock's
 * Elasticsearch store on the OpenSearch 2.19.6 node of hoplock-elasticsearch's tests, started in this JVM (result
 * files {@code es-failover-*} instead of {@code failover-*}).
 *
 * <p>Three electors campaign for one key. Each repetition waits for a renewal of the current leader, then a uniformly
 * random delay in [0, renew interval) so that the stop falls at a random phase of the renewal cycle, then
 * <ul>
 *   <li>crash: {@link ProcessHandle#destroyForcibly()} (SIGKILL, kill -9; no release), or</li>
 *   <li>graceful: {@link ProcessHandle#destroy()} (SIGTERM; the child's shutdown hook closes the elector, which
 *       releases),</li>
 * </ul>
 * and measures until a follower prints {@code ACQUIRED}. (The signals are sent through the {@link ProcessHandle}: the
 * same signals as {@link Process#destroyForcibly()} and {@link Process#destroy()}, which also close this side of the
 * child's stdout and would lose its last lines.) Times are CLOCK_MONOTONIC readings ({@code System.nanoTime()})
 * of this process and the children. After each repetition the stopped elector is replaced by a fresh JVM, which must
 * have read the store (its {@code OBSERVED} event) before the next repetition starts.
 *
 * <p>System properties: {@code bench.failover.crash} (repetitions, default 30), {@code bench.failover.graceful} (30),
 * {@code bench.failover.ttlMs} (2000), {@code bench.seed} (random seed, default 42), {@code bench.childLogback} (the
 * children's logback configuration, default {@code bench-logback.xml}: warnings to stderr), {@code bench.debug}
 * (print every event).
 */
public final class FailoverBench {

    private static final int ELECTORS = 3;
    private static final boolean DEBUG = Boolean.getBoolean("bench.debug");

    private final long ttlMs;
    private final long renewMs;
    private final long pollMs;
    /** The store arguments of every child (see {@link ElectorChild}). */
    private final List<String> store;
    /** The prefix of the result files: {@code failover-} (S3) or {@code es-failover-}. */
    private final String results;
    private final Random random;
    private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
    private final Map<String, ElectorProcess> children = new java.util.concurrent.ConcurrentHashMap<>();
    private final Map<String, Long> lastWriteNano = new HashMap<>();
    private @Nullable String leader;
    private int spawned;
    private int unexpectedLosses;
    private int releaseNotEffective;

    private FailoverBench(long ttlMs, List<String> store, String results, long seed) {
        this.ttlMs = ttlMs;
        this.renewMs = ttlMs / 3;
        this.pollMs = ttlMs / 15;
        this.store = store;
        this.results = results;
        this.random = new Random(seed);
    }

    public static void main(String[] args) throws Exception {
        int crashReps = Integer.getInteger("bench.failover.crash", 30);
        int gracefulReps = Integer.getInteger("bench.failover.graceful", 30);
        long ttlMs = Long.getLong("bench.failover.ttlMs", 2000);
        long seed = Long.getLong("bench.seed", 42);

        boolean search = "es".equals(System.getProperty("bench.failover.store", "s3"));

        long serverStart = System.nanoTime();
        List<String> store;
        if (search) {
            // The node logs through log4j's core; Boot's log4j-to-slf4j bridge is on the class path too.
            if (System.getProperty("log4j.provider") == null) {
                System.setProperty("log4j.provider", "org.apache.logging.log4j.core.impl.Log4jProvider");
            }
            OpenSearchNode node = OpenSearchNode.shared();
            String index = "hoplock-bench-failover-" + UUID.randomUUID().toString().substring(0, 8);
            // The store's start-up check, once: it creates the index with hoplock's mapping.
            ElasticsearchBackend.builder().endpoint(node.endpoint()).index(index).build().close();
            System.out.printf("OpenSearch ready at %s with index %s after %.1f s%n", node.endpoint(), index,
                    (System.nanoTime() - serverStart) / 1e9);
            store = List.of("es", node.endpoint().toString(), index);
        } else {
            S3MockServer server = S3MockServer.shared();
            System.out.printf("S3Mock ready at %s after %.1f s%n", server.endpoint(),
                    (System.nanoTime() - serverStart) / 1e9);
            store = List.of(server.endpoint().toString(), server.bucket(),
                    "bench/failover-" + UUID.randomUUID().toString().substring(0, 8) + "/");
        }
        FailoverBench bench = new FailoverBench(ttlMs, store, search ? "es-failover-" : "failover-", seed);
        Runtime.getRuntime().addShutdownHook(new Thread(bench::killAll, "kill-children"));
        try {
            bench.run(crashReps, gracefulReps);
        } finally {
            bench.stopAll();
            if (search) {
                OpenSearchNode.stopShared(); // its threads would keep the JVM alive
            }
        }
    }

    private void run(int crashReps, int gracefulReps) throws Exception {
        for (int i = 0; i < ELECTORS; i++) {
            spawn();
        }
        await(e -> e.is("ACQUIRED"), 60_000, "a first leader");
        for (ElectorProcess child : List.copyOf(children.values())) {
            if (!child.owner.equals(leader)) {
                awaitObserved(child.owner);
            }
        }
        Thread.sleep(2 * ttlMs); // let the JVMs settle

        List<List<?>> crashRows = new ArrayList<>();
        List<Double> crash = new ArrayList<>();
        List<Double> crashSinceWrite = new ArrayList<>();
        for (int rep = 1; rep <= crashReps; rep++) {
            Map<String, Object> row = crashOnce();
            crash.add((Double) row.get("kill_to_acquired_ms"));
            crashSinceWrite.add((Double) row.get("last_write_to_acquired_ms"));
            crashRows.add(List.of(rep, row.get("kill_to_acquired_ms"), row.get("last_write_to_acquired_ms"),
                    row.get("kill_phase_ms"), row.get("old_leader"), row.get("new_leader")));
            System.out.printf("crash %2d/%d: kill -> acquired %.0f ms (since last renewal %.0f ms, kill phase %.0f ms)%n",
                    rep, crashReps, row.get("kill_to_acquired_ms"), row.get("last_write_to_acquired_ms"),
                    row.get("kill_phase_ms"));
        }
        Results.writeCsv(results + "crash.csv", List.of("rep", "kill_to_acquired_ms", "last_write_to_acquired_ms",
                "kill_phase_ms", "old_leader", "new_leader"), crashRows);

        List<List<?>> gracefulRows = new ArrayList<>();
        List<Double> graceful = new ArrayList<>();
        List<Double> gracefulSinceRelease = new ArrayList<>();
        for (int rep = 1; rep <= gracefulReps; rep++) {
            Map<String, Object> row = gracefulOnce();
            graceful.add((Double) row.get("stop_to_acquired_ms"));
            gracefulSinceRelease.add((Double) row.get("released_to_acquired_ms"));
            gracefulRows.add(List.of(rep, row.get("stop_to_acquired_ms"), row.get("stop_to_released_ms"),
                    row.get("released_to_acquired_ms"), row.get("release_took_effect"), row.get("old_leader"),
                    row.get("new_leader")));
            if (!(Boolean) Objects.requireNonNull(row.get("release_took_effect"), "gracefulOnce sets it")) {
                releaseNotEffective++;
            }
            System.out.printf("graceful %2d/%d: stop -> acquired %.0f ms (stop -> released %.0f ms, released -> acquired"
                    + " %.0f ms)%s%n", rep, gracefulReps, row.get("stop_to_acquired_ms"), row.get("stop_to_released_ms"),
                    row.get("released_to_acquired_ms"),
                    (Boolean) row.get("release_took_effect") ? "" : " RELEASE DID NOT TAKE EFFECT");
        }
        Results.writeCsv(results + "graceful.csv", List.of("rep", "stop_to_acquired_ms", "stop_to_released_ms",
                "released_to_acquired_ms", "release_took_effect", "old_leader", "new_leader"), gracefulRows);

        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("ttl_ms", ttlMs);
        summary.put("renew_ms", renewMs);
        summary.put("poll_ms", pollMs);
        summary.put("electors", ELECTORS);
        summary.put("crash_reps", crash.size());
        summary.put("graceful_reps", graceful.size());
        summary.put("unexpected_losses", unexpectedLosses);
        summary.put("graceful_release_not_effective", releaseNotEffective);
        summary.put("jvms_spawned", spawned);
        put(summary, "crash", Stats.of(crash));
        put(summary, "crash_since_write", Stats.of(crashSinceWrite));
        put(summary, "graceful", Stats.of(graceful));
        put(summary, "graceful_since_release", Stats.of(gracefulSinceRelease));
        Results.writeSummary(results + "summary.properties", summary);
        System.out.printf("crash: p50 %.0f ms, p99 %.0f ms (TTL %d ms); graceful: p50 %.0f ms, p99 %.0f ms (poll %d ms)%n",
                Stats.of(crash).median(), Stats.of(crash).p99(), ttlMs, Stats.of(graceful).median(),
                Stats.of(graceful).p99(), pollMs);
    }

    private static void put(Map<String, Object> summary, String name, Stats stats) {
        summary.put(name + "_p50_ms", stats.median());
        summary.put(name + "_p99_ms", stats.p99());
        summary.put(name + "_p25_ms", stats.percentile(25));
        summary.put(name + "_p75_ms", stats.percentile(75));
        summary.put(name + "_min_ms", stats.min());
        summary.put(name + "_max_ms", stats.max());
        summary.put(name + "_mean_ms", stats.mean());
    }

    private Map<String, Object> crashOnce() throws Exception {
        String old = leaderJustRenewed();
        ElectorProcess victim = Objects.requireNonNull(children.get(old), "the leader is a running child");
        Thread.sleep(random.nextInt((int) renewMs));
        drain();
        long killNano = System.nanoTime();
        // SIGKILL through the process handle: Process.destroyForcibly() sends the same signal but also closes our end
        // of the child's stdout, which would lose the lines it wrote just before it died.
        victim.process.toHandle().destroyForcibly();
        Event acquired = await(e -> e.is("ACQUIRED") && !e.owner().equals(old), 20 * ttlMs, "a takeover after the kill");
        victim.process.waitFor(10, TimeUnit.SECONDS);
        victim.awaitRead(5_000);
        drain(); // lines the victim wrote before it died
        long lastWrite = Objects.requireNonNull(lastWriteNano.get(old), "the leader has written");
        if (lastWrite > killNano) {
            throw new IllegalStateException("renewal after the kill?");
        }
        children.remove(old);
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("kill_to_acquired_ms", (acquired.nano() - killNano) / 1e6);
        row.put("last_write_to_acquired_ms", (acquired.nano() - lastWrite) / 1e6);
        row.put("kill_phase_ms", (killNano - lastWrite) / 1e6);
        row.put("old_leader", old);
        row.put("new_leader", acquired.owner());
        replace();
        return row;
    }

    private Map<String, Object> gracefulOnce() throws Exception {
        String old = leaderJustRenewed();
        ElectorProcess victim = Objects.requireNonNull(children.get(old), "the leader is a running child");
        Thread.sleep(random.nextInt((int) renewMs));
        drain();
        long stopNano = System.nanoTime();
        // SIGTERM through the process handle (Process.destroy() would close our end of the child's stdout).
        victim.process.toHandle().destroy();
        Event acquired = await(e -> e.is("ACQUIRED") && !e.owner().equals(old), 20 * ttlMs, "a takeover after the stop");
        if (!victim.process.waitFor(15, TimeUnit.SECONDS)) {
            victim.process.destroyForcibly();
        }
        victim.awaitRead(5_000);
        drain();
        Long closed = victim.closedNano;
        if (closed == null) {
            throw new IllegalStateException(old + " exited without printing CLOSED; see its stderr "
                    + victim.stderr);
        }
        children.remove(old);
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("stop_to_acquired_ms", (acquired.nano() - stopNano) / 1e6);
        row.put("stop_to_released_ms", (closed - stopNano) / 1e6);
        row.put("released_to_acquired_ms", (acquired.nano() - closed) / 1e6);
        row.put("release_took_effect", "-".equals(victim.holderAfterClose));
        row.put("old_leader", old);
        row.put("new_leader", acquired.owner());
        replace();
        return row;
    }

    private String requireLeader() {
        drain();
        if (leader == null || !children.containsKey(leader)) {
            throw new IllegalStateException("no leader among " + children.keySet());
        }
        return leader;
    }

    /**
     * Waits for the current leader's next renewal and returns the leader. If leadership changes hands meanwhile (a
     * renewal that failed on a loaded machine), starts over with the new leader, up to three times.
     */
    private String leaderJustRenewed() throws InterruptedException {
        for (int attempt = 1; ; attempt++) {
            String owner = requireLeader();
            Event event = await(e -> e.owner().equals(owner) && (e.is("RENEWED") || e.is("LOST")), 5 * ttlMs,
                    "a renewal by " + owner);
            if (event.is("RENEWED")) {
                return owner;
            }
            if (attempt == 3) {
                throw new IllegalStateException("leadership keeps changing hands without a stop; see the logs");
            }
            await(e -> e.is("ACQUIRED"), 20 * ttlMs, "a new leader after " + owner + " lost the lease");
        }
    }

    private void replace() throws Exception {
        String owner = spawn();
        awaitObserved(owner);
        Thread.sleep(ttlMs / 2); // the new JVM's start-up work (class loading, JIT) settles
    }

    private void awaitObserved(String owner) throws InterruptedException {
        ElectorProcess child = Objects.requireNonNull(children.get(owner), "spawned, so a child");
        if (child.observed) {
            return;
        }
        await(e -> e.is("OBSERVED") && e.owner().equals(owner), 60_000, owner + " to read the store");
    }

    private String spawn() throws IOException {
        String owner = "e" + (++spawned);
        Path stderr = Results.logs().resolve(results + owner + ".err");
        java.nio.file.Files.createDirectories(stderr.getParent());
        List<String> command = new ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "java")
                .toString(), "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx96m",
                "-Dlogback.configurationFile=" + System.getProperty("bench.childLogback", "bench-logback.xml"),
                "-cp", System.getProperty("java.class.path"), ElectorChild.class.getName()));
        command.addAll(store);
        command.addAll(List.of("leader", owner, Long.toString(ttlMs)));
        ElectorProcess child = ElectorProcess.start(owner, command, stderr);
        children.put(owner, child);
        child.startReading(events);
        return owner;
    }

    /** On an abnormal exit of this JVM (a timeout's SIGTERM): no child may outlive it. */
    private void killAll() {
        for (ElectorProcess child : List.copyOf(children.values())) {
            child.process.toHandle().destroyForcibly();
        }
    }

    private void stopAll() {
        for (ElectorProcess child : children.values()) {
            child.process.destroy();
        }
        for (ElectorProcess child : children.values()) {
            try {
                if (!child.process.waitFor(10, TimeUnit.SECONDS)) {
                    child.process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                child.process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Handles queued events without waiting. */
    private void drain() {
        Event event;
        while ((event = events.poll()) != null) {
            handle(event);
        }
    }

    private Event await(Predicate<Event> wanted, long timeoutMs, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (true) {
            long left = deadline - System.nanoTime();
            Event event = left <= 0 ? null : events.poll(left, TimeUnit.NANOSECONDS);
            if (event == null) {
                throw new IllegalStateException("timed out after " + timeoutMs + " ms waiting for " + what);
            }
            handle(event);
            if (wanted.test(event)) {
                return event;
            }
        }
    }

    private void handle(Event event) {
        if (DEBUG) {
            System.out.println("  " + event);
        }
        ElectorProcess child = children.get(event.owner());
        switch (event.type()) {
            case "ACQUIRED" -> {
                leader = event.owner();
                lastWriteNano.put(event.owner(), event.nano());
            }
            case "RENEWED" -> lastWriteNano.put(event.owner(), event.nano());
            case "LOST" -> {
                if (event.owner().equals(leader)) {
                    leader = null;
                }
                String cause = event.fields().getOrDefault("cause", "");
                if (!cause.equals("STOPPED")) {
                    unexpectedLosses++;
                    System.out.println("note: " + event.owner() + " lost the lease: " + cause);
                }
            }
            case "OBSERVED" -> {
                if (child != null) {
                    child.observed = true;
                }
            }
            case "CLOSED" -> {
                if (child != null) {
                    child.closedNano = event.nano();
                    child.holderAfterClose = event.fields().getOrDefault("holder", "?");
                }
            }
            case "PROBLEM" -> System.out.println("note: " + event.owner() + " reported " + event.fields().get("kind"));
            default -> {
            }
        }
    }
}
