package dev.hoplock.bench.report;

import dev.hoplock.bench.common.Results;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import org.jspecify.annotations.Nullable;

/**
 * Reads the raw results of the latest run for the report, from one directory: the {@code .properties} summaries, CSV
 * columns and JMH scores. Reads only, and never makes a figure up: a missing file reads as {@code null} (a summary)
 * or as empty (JMH scores), which the sections report as not measured.
 */
final class ResultFiles {

    private final Path results;
    private final Properties machine;
    private final Properties stages;

    ResultFiles(Path results) {
        this.results = results;
        this.machine = Objects.requireNonNull(load("machine.properties"), "empty when missing, never null");
        this.stages = Objects.requireNonNull(load("stages.properties"), "empty when missing, never null");
    }

    /** The machine of the latest run of {@code run.sh} ({@code machine.properties}); empty when missing. */
    Properties machine() {
        return machine;
    }

    /** What each stage ran, when, with what status and settings ({@code stages.properties}); empty when missing. */
    Properties stages() {
        return stages;
    }

    /** The path of a result file, whether or not it exists. */
    Path resolve(String name) {
        return results.resolve(name);
    }

    /** The scores of the gate benchmark ({@code jmh-gate.csv}), as {@link #jmh(String)}. */
    Map<String, double[]> jmh() {
        return jmh("jmh-gate.csv");
    }

    /**
     * The scores of a JMH CSV file by benchmark name ({@code name} and {@code name:gc.alloc.rate.norm} for a
     * secondary result), each as {score, error (99.9%), NaN when JMH gave none}; empty when the file is missing. A row
     * of the gate benchmark with {@code observations} other than {@code absent} is named {@code name[observations=...]}.
     */
    Map<String, double[]> jmh(String fileName) {
        Map<String, double[]> scores = new LinkedHashMap<>();
        Path file = results.resolve(fileName);
        if (!Files.exists(file)) {
            return scores;
        }
        for (Map<String, String> row : Results.readCsv(file)) {
            String benchmark = Objects.requireNonNull(row.get("Benchmark"), "JMH's CSV names the benchmark");
            String name = benchmark.substring(benchmark.lastIndexOf('.', benchmark.contains(":")
                    ? benchmark.indexOf(':') : benchmark.length()) + 1).replace("\u00b7", "");
            String observed = row.get("Param: observations");
            if (observed != null && !observed.isEmpty() && !observed.equals("absent")) {
                // The gate with an ObservationRegistry (issue 23): its own rows; the plain names stay the gate's as before.
                int secondary = name.indexOf(':');
                name = secondary < 0 ? name + "[observations=" + observed + "]"
                        : name.substring(0, secondary) + "[observations=" + observed + "]" + name.substring(secondary);
            }
            double score = Double.parseDouble(row.get("Score"));
            String error = row.get("Score Error (99.9%)");
            double err = error == null || error.isEmpty() || error.equals("NaN") ? Double.NaN : Double.parseDouble(error);
            scores.put(name, new double[] {score, err});
        }
        return scores;
    }

    /** One numeric column of a CSV result file, in the file's order. */
    double[] column(String file, String name) {
        return Results.readCsv(results.resolve(file)).stream().mapToDouble(r -> Double.parseDouble(r.get(name)))
                .toArray();
    }

    /**
     * A {@code .properties} summary, or {@code null} when the file is missing (its stage was not measured); the
     * machine and the stages files are empty instead of {@code null}.
     */
    @Nullable Properties load(String name) {
        Path file = results.resolve(name);
        return Files.exists(file) ? Results.readSummary(file) : (name.equals("machine.properties")
                || name.equals("stages.properties") ? new Properties() : null);
    }
}
