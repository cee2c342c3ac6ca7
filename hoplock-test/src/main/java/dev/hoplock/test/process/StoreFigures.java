package dev.hoplock.test.process;

import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The settings and the results file of a store module's figures test (its {@code *FailoverFigures} class, run by
 * {@code benchmarks/run.sh}'s {@code stores} stage or by hand), in one place for every store:
 * <ul>
 *   <li>{@link #reps()}: {@code -Dhoplock.failover.reps} (default 30), SIGKILLs and as many SIGTERMs;</li>
 *   <li>{@link #requestWindow()}: {@code -Dhoplock.figures.window} in seconds (default 60), the window in which
 *       {@link RequestCount} counts;</li>
 *   <li>{@link #failover} and {@link #requests}: when {@code -Dhoplock.figures.out} names a file, they add their keys
 *       to it (a {@code .properties} file, keys sorted, one per line, read by the benchmarks' report); without the
 *       property they write nothing.</li>
 * </ul>
 * The keys, for a failover run: {@code store}, {@code server_version}, {@code ttl_ms}, {@code renew_ms},
 * {@code poll_ms}, {@code reps}, then {@code crash_}, {@code crash_since_write_} and {@code graceful_} each with
 * {@code n}, {@code p50_ms}, {@code p99_ms}, {@code min_ms} and {@code max_ms}, and {@code failover_load_start} /
 * {@code failover_load_end} (the machine's 1-minute load average from {@code /proc/loadavg}, "-" where there is none);
 * for a request count: {@code requests}, {@code requests_window_s}, {@code requests_per_hour},
 * {@code requests_ttl_ms}, {@code requests_counted} (what the count is, in words), {@code requests.<kind>} and
 * {@code requests_load_start} / {@code requests_load_end}. A key written again replaces its old value; nothing else
 * in the file changes, so the two tests of one class may write in either order.
 */
public final class StoreFigures {

    /** The system property naming the results file. */
    public static final String OUT = "hoplock.figures.out";

    private StoreFigures() {
    }

    /** {@code -Dhoplock.failover.reps}, default 30. */
    public static int reps() {
        return Integer.getInteger("hoplock.failover.reps", 30);
    }

    /** {@code -Dhoplock.figures.window} seconds, default 60. */
    public static Duration requestWindow() {
        return Duration.ofSeconds(Long.getLong("hoplock.figures.window", 60));
    }

    /** The machine's 1-minute load average ({@code /proc/loadavg}), or "-" when it cannot be read. */
    public static String loadAverage() {
        try {
            String text = Files.readString(Path.of("/proc/loadavg"), StandardCharsets.US_ASCII).strip();
            return text.split(" ")[0];
        } catch (IOException | RuntimeException notLinux) {
            return "-";
        }
    }

    /**
     * Adds a failover run to the results file, if one is named: {@code summaries} as {@link FailoverFigures#run}
     * returns them (SIGKILL, last renewal, SIGTERM).
     */
    public static void failover(String store, String serverVersion, Duration ttl, int reps,
            List<FailoverFigures.Summary> summaries, String loadStart) {
        Map<String, String> values = new TreeMap<>();
        values.put("store", store);
        values.put("server_version", serverVersion);
        values.put("ttl_ms", Long.toString(ttl.toMillis()));
        values.put("renew_ms", Long.toString(ttl.dividedBy(3).toMillis()));
        values.put("poll_ms", Long.toString(ttl.dividedBy(15).toMillis()));
        values.put("reps", Integer.toString(reps));
        String[] prefixes = {"crash", "crash_since_write", "graceful"};
        for (int i = 0; i < prefixes.length && i < summaries.size(); i++) {
            FailoverFigures.Summary s = summaries.get(i);
            values.put(prefixes[i] + "_n", Integer.toString(s.count()));
            values.put(prefixes[i] + "_p50_ms", Long.toString(s.p50()));
            values.put(prefixes[i] + "_p99_ms", Long.toString(s.p99()));
            values.put(prefixes[i] + "_min_ms", Long.toString(s.min()));
            values.put(prefixes[i] + "_max_ms", Long.toString(s.max()));
        }
        values.put("failover_load_start", loadStart);
        values.put("failover_load_end", loadAverage());
        write(values);
    }

    /**
     * Adds a request count to the results file, if one is named.
     *
     * @param counted what {@code result} counts, in words (for example "HTTP requests through a proxy in front of
     *                the emulator")
     * @param byKind  the requests by kind (an HTTP method and path shape, a command), or empty
     */
    public static void requests(String store, String serverVersion, Duration ttl, RequestCount.Result result,
            String counted, Map<String, Long> byKind, String loadStart) {
        Map<String, String> values = new TreeMap<>();
        values.put("store", store);
        values.put("server_version", serverVersion);
        values.put("requests", Long.toString(result.requests()));
        values.put("requests_window_s", Long.toString(result.window().toSeconds()));
        values.put("requests_per_hour", Long.toString(result.perHour()));
        values.put("requests_ttl_ms", Long.toString(ttl.toMillis()));
        values.put("requests_counted", counted);
        byKind.forEach((kind, count) -> values.put("requests." + kind.replace(' ', '_'),
                Long.toString(count)));
        values.put("requests_load_start", loadStart);
        values.put("requests_load_end", loadAverage());
        write(values);
    }

    private static void write(Map<String, String> values) {
        @Nullable String out = System.getProperty(OUT);
        if (out == null || out.isBlank()) {
            return;
        }
        Path file = Path.of(out).toAbsolutePath();
        Properties merged = new Properties();
        try {
            if (Files.exists(file)) {
                try (var in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                    merged.load(in);
                }
            } else if (file.getParent() != null) {
                Files.createDirectories(file.getParent());
            }
            merged.putAll(values);
            StringBuilder text = new StringBuilder();
            for (String key : new java.util.TreeSet<>(merged.stringPropertyNames())) {
                text.append(escape(key, true)).append('=').append(escape(merged.getProperty(key), false))
                        .append('\n');
            }
            Files.writeString(file, text.toString(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the figures to " + file + " (-D" + OUT + "): " + e.getMessage()
                    + "; give a path in a writable directory", e);
        }
        System.out.println("figures written to " + file);
    }

    /** Escapes as {@link Properties#load} reads it back (backslash, line breaks, and in a key '=', ':' and spaces). */
    private static String escape(String text, boolean key) {
        StringBuilder escaped = new StringBuilder();
        for (char c : text.toCharArray()) {
            switch (c) {
                case '\\' -> escaped.append("\\\\");
                case '\n' -> escaped.append("\\n");
                case '\r' -> escaped.append("\\r");
                case '=', ':', ' ', '#', '!' -> escaped.append(key ? "\\" + c : String.valueOf(c));
                default -> escaped.append(c);
            }
        }
        return escaped.toString();
    }
}
