package dev.hoplock.bench.rolling;

import dev.hoplock.bench.common.Results;
import dev.hoplock.bench.common.Stats;
import dev.hoplock.spring.it.RollingChild;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;

/**
 * Rolling restarts of three whole Spring Boot applications ({@link RollingChild}, one JVM each, default
 * {@code hoplock.campaign-when=ready}) over one filesystem store, as a deployment does them: stop the oldest instance
 * (SIGTERM through {@link ProcessHandle#destroy()}, which keeps the child's last lines, unlike
 * {@link Process#destroy()}: Boot's graceful close; a leader releases its lease), start its replacement, wait until the replacement is
 * ready and follows the election, next. Every stop of the leader is a handover, and for it we measure the time with no
 * leader: from the old leader's {@code Lost} event to the next {@code Acquired} event of any instance (wall-clock
 * instants written by the electors of one host), and from the SIGTERM to that acquisition.
 *
 * <p>Checked over the whole run and reported: leader work (a {@code @LeaderOnly} job every 20 ms) of two owners never
 * overlaps on the host's monotonic clock, the fencing token it runs under never goes down, and no instance acquires
 * before it is ready (each replacement spends {@code warmupMs} started but not ready).
 *
 * <p>System properties: {@code bench.rolling.rounds} (rolling restarts of all three, default 10),
 * {@code bench.rolling.ttlMs} (2000; renew TTL/3, poll TTL/15), {@code bench.rolling.warmupMs} (1000),
 * {@code hoplock.test.dir} (where the store and the children's stderr go).
 */
public final class RollingRestartBench {

    private static final int INSTANCES = 3;
    private static final long STEP_MS = 120_000;

    private final long ttlMs;
    private final long warmupMs;
    private final Path work;
    private final List<Instance> instances = new CopyOnWriteArrayList<>();
    private int spawned;

    private RollingRestartBench(long ttlMs, long warmupMs, Path work) {
        this.ttlMs = ttlMs;
        this.warmupMs = warmupMs;
        this.work = work;
    }

    public static void main(String[] args) throws Exception {
        int rounds = Integer.getInteger("bench.rolling.rounds", 10);
        long ttlMs = Long.getLong("bench.rolling.ttlMs", 2000);
        long warmupMs = Long.getLong("bench.rolling.warmupMs", 1000);
        Path work = Path.of(System.getProperty("hoplock.test.dir", "benchmarks/target"), "rolling-" + ProcessHandle
                .current().pid()).toAbsolutePath();
        Files.createDirectories(work);
        RollingRestartBench bench = new RollingRestartBench(ttlMs, warmupMs, work);
        Runtime.getRuntime().addShutdownHook(new Thread(bench::killAll, "kill-children"));
        try {
            bench.run(rounds);
        } finally {
            bench.killAll();
        }
    }

    private void run(int rounds) throws Exception {
        List<Instance> live = new ArrayList<>();
        for (int i = 0; i < INSTANCES; i++) {
            live.add(spawn());
        }
        for (Instance instance : live) {
            await(() -> instance.ready != null && (instance.observed || instance.leads()), "%s ready", instance);
        }
        await(() -> live.stream().anyMatch(Instance::leads), "a first leader");

        List<List<?>> rows = new ArrayList<>();
        List<Double> noLeader = new ArrayList<>();
        List<Double> stopToAcquired = new ArrayList<>();
        List<Double> startToReady = new ArrayList<>();
        int stop = 0;
        for (int round = 1; round <= rounds; round++) {
            for (int i = 0; i < INSTANCES; i++) {
                stop++;
                Instance oldest = live.remove(0);
                boolean wasLeader = oldest.leads();
                Instant stopped = Instant.now();
                oldest.process.toHandle().destroy();
                if (!oldest.process.waitFor(STEP_MS, TimeUnit.MILLISECONDS)) {
                    throw new IllegalStateException(oldest + " did not exit after SIGTERM");
                }
                oldest.reader.join(STEP_MS);
                Double gap = null;
                Double sinceStop = null;
                String newLeader = "";
                if (wasLeader) {
                    await(() -> live.stream().anyMatch(instance -> instance.acquiredAfter(stopped).isPresent()),
                            "a new leader after %s stopped", oldest);
                    Instance next = live.stream().filter(instance -> instance.acquiredAfter(stopped).isPresent())
                            .findFirst().orElseThrow();
                    Instant acquired = next.acquiredAfter(stopped).orElseThrow();
                    Instant lost = oldest.lastLost.get();
                    Instant from = lost != null && !lost.isBefore(stopped) ? lost : stopped;
                    gap = ms(from, acquired);
                    sinceStop = ms(stopped, acquired);
                    newLeader = next.owner;
                    noLeader.add(gap);
                    stopToAcquired.add(sinceStop);
                }
                Instance replacement = spawn();
                live.add(replacement);
                await(() -> replacement.ready != null && (replacement.observed || replacement.leads()),
                        "%s ready", replacement);
                double readyMs = ms(replacement.spawnedAt, Objects.requireNonNull(replacement.ready, "awaited above"));
                startToReady.add(readyMs);
                rows.add(List.of(stop, round, oldest.owner, wasLeader, gap == null ? "" : gap,
                        sinceStop == null ? "" : sinceStop, newLeader, replacement.owner, readyMs));
                System.out.printf("stop %2d (round %d): %s%s, replacement %s ready after %.0f ms%n", stop, round,
                        oldest.owner, wasLeader ? String.format(" (leader): no leader for %.1f ms (SIGTERM -> acquired"
                                + " %.1f ms), new leader %s", gap, sinceStop, newLeader) : " (follower)",
                        replacement.owner, readyMs);
            }
        }
        Instance last = live.stream().filter(Instance::leads).findFirst().orElseThrow();
        int runs = last.runs.size();
        await(() -> last.runs.size() > runs + 3, "leader work after the last restart");
        for (Instance instance : live) {
            instance.process.toHandle().destroy();
        }
        for (Instance instance : live) {
            instance.process.waitFor(STEP_MS, TimeUnit.MILLISECONDS);
        }

        List<String> overlaps = overlaps();
        List<String> early = new ArrayList<>();
        for (Instance instance : instances) {
            for (Instant acquired : instance.acquired) {
                if (instance.ready == null || acquired.isBefore(instance.ready)) {
                    early.add(instance.owner + " acquired at " + acquired + ", ready at " + instance.ready);
                }
            }
        }
        overlaps.forEach(o -> System.out.println("OVERLAP " + o));
        early.forEach(e -> System.out.println("ACQUIRED BEFORE READY " + e));

        Results.writeCsv("rolling-restart.csv", List.of("stop", "round", "stopped", "was_leader", "no_leader_ms",
                "stop_to_acquired_ms", "new_leader", "replacement", "replacement_start_to_ready_ms"), rows);
        Stats gaps = Stats.of(noLeader);
        Stats sinceStops = Stats.of(stopToAcquired);
        Stats ready = Stats.of(startToReady);
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("rounds", rounds);
        summary.put("stops", stop);
        summary.put("handovers", gaps.count());
        summary.put("ttl_ms", ttlMs);
        summary.put("poll_ms", ttlMs / 15);
        summary.put("warmup_ms", warmupMs);
        summary.put("no_leader_p50_ms", gaps.median());
        summary.put("no_leader_min_ms", gaps.min());
        summary.put("no_leader_max_ms", gaps.max());
        summary.put("stop_to_acquired_p50_ms", sinceStops.median());
        summary.put("stop_to_acquired_max_ms", sinceStops.max());
        summary.put("replacement_ready_p50_ms", ready.median());
        summary.put("leader_work_runs", instances.stream().mapToInt(instance -> instance.runs.size()).sum());
        summary.put("two_leaders", overlaps.size());
        summary.put("acquired_before_ready", early.size());
        Results.writeSummary("rolling-summary.properties", summary);
        System.out.printf("%d stops, %d handovers: no leader for %s ms (p50 %.1f); two leaders: %d; acquired before"
                + " ready: %d%n", stop, gaps.count(), gaps.describe("%.1f"), gaps.median(), overlaps.size(),
                early.size());
        if (!overlaps.isEmpty() || !early.isEmpty()) {
            System.exit(1);
        }
    }

    /** Leader work of two owners that overlaps, or that runs under a lower token than earlier work. */
    private List<String> overlaps() {
        record Run(String owner, long generation, long start, long end) {
        }
        List<Run> all = new ArrayList<>();
        for (Instance instance : instances) {
            for (long[] run : instance.runs) {
                all.add(new Run(instance.owner, run[0], run[1], run[2]));
            }
        }
        all.sort(Comparator.comparingLong(Run::start));
        List<String> found = new ArrayList<>();
        long latestEnd = Long.MIN_VALUE;
        Run latest = null;
        for (Run run : all) {
            if (latest != null && !latest.owner().equals(run.owner()) && run.start() < latestEnd) {
                found.add(run + " started before " + latest + " ended");
            }
            if (latest != null && run.generation() < latest.generation()) {
                found.add(run + " ran under a lower token than " + latest);
            }
            if (run.end() >= latestEnd) {
                latestEnd = run.end();
                latest = run;
            }
        }
        return found;
    }

    private static double ms(Instant from, Instant to) {
        return Duration.between(from, to).toNanos() / 1e6;
    }

    private void await(BooleanSupplier condition, String what, Object... args) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(STEP_MS);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("timed out waiting for " + String.format(what, args));
            }
            TimeUnit.MILLISECONDS.sleep(5);
        }
    }

    private Instance spawn() throws IOException {
        String owner = "node-" + (++spawned);
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        Path stderr = Results.logs().resolve("rolling-" + owner + ".err");
        Instant at = Instant.now();
        Process process = new ProcessBuilder(java, "-Xmx128m", "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), RollingChild.class.getName(),
                work.resolve("store").toString(), owner, Long.toString(ttlMs), Long.toString(warmupMs),
                "logging.config=classpath:bench-logback.xml")
                .redirectError(stderr.toFile())
                .start();
        Instance instance = new Instance(owner, process, at);
        instances.add(instance);
        instance.reader.start();
        return instance;
    }

    private void killAll() {
        for (Instance instance : instances) {
            instance.process.destroyForcibly();
        }
    }

    /** One child JVM and what it reported. */
    private static final class Instance {
        final String owner;
        final Process process;
        final Instant spawnedAt;
        final Thread reader;
        volatile @Nullable Instant ready;
        volatile boolean observed;
        final List<Instant> acquired = new CopyOnWriteArrayList<>();
        final java.util.concurrent.atomic.AtomicReference<Instant> lastLost =
                new java.util.concurrent.atomic.AtomicReference<>();
        final Map<Long, Boolean> terms = new ConcurrentHashMap<>();
        final List<long[]> runs = new CopyOnWriteArrayList<>();

        Instance(String owner, Process process, Instant spawnedAt) {
            this.owner = owner;
            this.process = process;
            this.spawnedAt = spawnedAt;
            this.reader = new Thread(this::pump, owner + "-stdout");
            this.reader.setDaemon(true);
        }

        boolean leads() {
            return process.isAlive() && terms.containsValue(Boolean.TRUE);
        }

        Optional<Instant> acquiredAfter(Instant instant) {
            return acquired.stream().filter(at -> at.isAfter(instant)).findFirst();
        }

        void pump() {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    String[] word = line.split(" ");

                    switch (word[0]) {
                        case "READY" -> ready = Instant.parse(word[1]);
                        case "OBSERVED" -> observed = true;
                        case "ACQUIRED" -> {
                            acquired.add(Instant.parse(word[2]));
                            terms.put(Long.parseLong(word[1]), true);
                        }
                        case "LOST" -> {
                            lastLost.set(Instant.parse(word[2]));
                            terms.put(Long.parseLong(word[1]), false);
                        }
                        case "RUN" -> runs.add(new long[] {Long.parseLong(word[1]), Long.parseLong(word[2]),
                                Long.parseLong(word[3])});
                        default -> {
                        }
                    }
                }
            } catch (IOException | RuntimeException e) {
                // The process ended; what it printed so far is kept.
            }
        }

        @Override
        public String toString() {
            return owner;
        }
    }
}
