package dev.hoplock.bench.startup;

import dev.hoplock.bench.common.Results;
import dev.hoplock.bench.common.Stats;
import dev.hoplock.bench.startup.app.MinimalApp;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Start-up time added by {@code hoplock-spring-boot-starter} to a minimal Spring Boot application
 * ({@link MinimalApp}, filesystem store): the same application started in fresh JVMs with two class paths, the
 * minimal one ({@code spring-boot-starter}) and the same plus the starter, alternately, several times each.
 *
 * <p>Measured per run: {@code SpringApplication.run} inside the application (context start), the JVM's uptime when
 * the context is ready, and the wall time from process start to exit as seen from here.
 *
 * <p>System properties: {@code bench.startup.reps} (runs per variant, default 10), {@code bench.startup.cp.without}
 * and {@code bench.startup.cp.with} (files holding the two class paths, written by {@code run.sh}),
 * {@code bench.startup.work} (a scratch directory, default {@code benchmarks/target/startup}).
 */
public final class StartupBench {

    private StartupBench() {
    }

    public static void main(String[] args) throws Exception {
        int reps = Integer.getInteger("bench.startup.reps", 10);
        Path work = Paths.get(System.getProperty("bench.startup.work", "benchmarks/target/startup")).toAbsolutePath();
        Path appClasses = copyApp(work.resolve("app-classes"));
        Path leases = work.resolve("leases");
        Files.createDirectories(leases);
        Map<String, String> classpaths = new LinkedHashMap<>();
        classpaths.put("without-starter", appClasses + java.io.File.pathSeparator
                + Files.readString(Paths.get(System.getProperty("bench.startup.cp.without"))).strip());
        classpaths.put("with-starter", appClasses + java.io.File.pathSeparator
                + Files.readString(Paths.get(System.getProperty("bench.startup.cp.with"))).strip());

        // One run of each first, not counted: fills the OS page cache with the jars.
        for (String variant : classpaths.keySet()) {
            run(Objects.requireNonNull(classpaths.get(variant), "every variant has a class path"), leases, work, variant + "-warmup");
        }
        List<List<?>> rows = new ArrayList<>();
        Map<String, List<Double>> runMs = new HashMap<>();
        Map<String, List<Double>> uptimeMs = new HashMap<>();
        Map<String, List<Double>> wallMs = new HashMap<>();
        Map<String, String> beans = new HashMap<>();
        for (int rep = 1; rep <= reps; rep++) {
            List<String> order = new ArrayList<>(classpaths.keySet());
            if (rep % 2 == 0) {
                java.util.Collections.reverse(order); // alternate which variant goes first
            }
            for (String variant : order) {
                Map<String, String> result = run(Objects.requireNonNull(classpaths.get(variant), "every variant has a class path"), leases, work, variant + "-" + rep);
                double run = Double.parseDouble(result.get("run_ms"));
                double uptime = Double.parseDouble(result.get("uptime_ms"));
                double wall = Double.parseDouble(result.get("wall_ms"));
                runMs.computeIfAbsent(variant, v -> new ArrayList<>()).add(run);
                uptimeMs.computeIfAbsent(variant, v -> new ArrayList<>()).add(uptime);
                wallMs.computeIfAbsent(variant, v -> new ArrayList<>()).add(wall);
                beans.put(variant, result.get("beans"));
                rows.add(List.of(rep, variant, run, uptime, wall, result.get("beans"), result.get("hoplock")));
                System.out.printf("startup %2d %-15s run %.0f ms, ready at JVM uptime %.0f ms, exit after %.0f ms,"
                        + " %s beans%n", rep, variant, run, uptime, wall, result.get("beans"));
            }
        }
        Results.writeCsv("startup.csv", List.of("rep", "variant", "run_ms", "uptime_ms", "wall_ms", "beans", "hoplock"),
                rows);
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("reps", reps);
        for (String variant : classpaths.keySet()) {
            String key = variant.replace('-', '_');
            put(summary, key + "_run", Stats.of(Objects.requireNonNull(runMs.get(variant), "measured every variant")));
            put(summary, key + "_uptime", Stats.of(Objects.requireNonNull(uptimeMs.get(variant), "measured every variant")));
            put(summary, key + "_wall", Stats.of(Objects.requireNonNull(wallMs.get(variant), "measured every variant")));
            summary.put(key + "_beans", beans.get(variant));
            summary.put(key + "_jars", classpaths.get(variant).split(java.io.File.pathSeparator).length - 1);
        }
        for (String measure : List.of("run", "uptime", "wall")) {
            Map<String, List<Double>> source = measure.equals("run") ? runMs : measure.equals("uptime") ? uptimeMs
                    : wallMs;
            double with = Stats.of(Objects.requireNonNull(source.get("with-starter"), "measured")).median();
            double without = Stats.of(Objects.requireNonNull(source.get("without-starter"), "measured")).median();
            summary.put("added_" + measure + "_ms", with - without);
            summary.put("added_" + measure + "_ratio", with / without);
        }
        Results.writeSummary("startup.properties", summary);
        System.out.printf("starter adds %.0f ms to SpringApplication.run (median %.0f -> %.0f ms)%n",
                summary.get("added_run_ms"), Stats.of(Objects.requireNonNull(runMs.get("without-starter"), "measured")).median(),
                Stats.of(Objects.requireNonNull(runMs.get("with-starter"), "measured")).median());
    }

    private static void put(Map<String, Object> summary, String name, Stats stats) {
        summary.put(name + "_p50_ms", stats.median());
        summary.put(name + "_min_ms", stats.min());
        summary.put(name + "_max_ms", stats.max());
        summary.put(name + "_p25_ms", stats.percentile(25));
        summary.put(name + "_p75_ms", stats.percentile(75));
    }

    private static Map<String, String> run(String classpath, Path leases, Path work, String label)
            throws IOException, InterruptedException {
        Path log = work.resolve("logs").resolve(label + ".log");
        Files.createDirectories(log.getParent());
        List<String> command = List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", classpath, MinimalApp.class.getName(),
                "--hoplock.backend=filesystem", "--hoplock.filesystem.directory=" + leases);
        long start = System.nanoTime();
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException(label + " did not exit within 120 s; see " + log);
        }
        double wall = (System.nanoTime() - start) / 1e6;
        String line = Files.readAllLines(log, StandardCharsets.UTF_8).stream()
                .filter(l -> l.startsWith("startup ")).findFirst()
                .orElseThrow(() -> new IllegalStateException(label + " printed no result; see " + log));
        Map<String, String> result = new HashMap<>();
        for (String token : line.substring("startup ".length()).split(" ")) {
            int eq = token.indexOf('=');
            result.put(token.substring(0, eq), token.substring(eq + 1));
        }
        result.put("wall_ms", Double.toString(wall));
        return result;
    }

    /** Copies the application's package alone, so that component scanning and the class path see nothing else. */
    private static Path copyApp(Path target) throws IOException, URISyntaxException {
        Path source = Paths.get(MinimalApp.class.getResource("MinimalApp.class").toURI()).getParent();
        String packagePath = MinimalApp.class.getPackageName().replace('.', '/');
        Path destination = target.resolve(packagePath);
        Files.createDirectories(destination);
        try (Stream<Path> files = Files.list(source)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Files.copy(file, destination.resolve(file.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        return target;
    }
}
