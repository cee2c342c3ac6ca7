package dev.hoplock.bench.common;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The raw results of one run: CSV files (header line, comma-separated, no quoting: values never contain commas) and
 * {@code .properties} summaries, all in one directory ({@code -Dbench.results}, default {@code benchmarks/results}).
 */
public final class Results {

    private Results() {
    }

    public static Path dir() {
        Path dir = Paths.get(System.getProperty("bench.results", "benchmarks/results")).toAbsolutePath();
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return dir;
    }

    /** Logs of a run (child processes, stages): {@code -Dbench.logs}, default {@code benchmarks/target/bench-logs}. */
    public static Path logs() {
        Path dir = Paths.get(System.getProperty("bench.logs", "benchmarks/target/bench-logs")).toAbsolutePath();
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return dir;
    }

    public static Path file(String name) {
        return dir().resolve(name);
    }

    /** Writes a CSV file: the header, then one line per row. */
    public static void writeCsv(String name, List<String> header, List<List<?>> rows) {
        try (Writer out = Files.newBufferedWriter(file(name), StandardCharsets.UTF_8)) {
            out.write(String.join(",", header));
            out.write('\n');
            for (List<?> row : rows) {
                List<String> cells = new ArrayList<>();
                for (Object cell : row) {
                    cells.add(format(cell));
                }
                out.write(String.join(",", cells));
                out.write('\n');
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads a CSV file written by {@link #writeCsv}: one map per row, keyed by the header. */
    public static List<Map<String, String>> readCsv(Path path) {
        try {
            List<String> lines = Files.readAllLines(path, StandardCharsets.UTF_8);
            List<Map<String, String>> rows = new ArrayList<>();
            if (lines.isEmpty()) {
                return rows;
            }
            String[] header = lines.get(0).split(",", -1);
            for (String line : lines.subList(1, lines.size())) {
                if (line.isBlank()) {
                    continue;
                }
                String[] cells = line.split(",", -1);
                Map<String, String> row = new LinkedHashMap<>();
                for (int i = 0; i < header.length && i < cells.length; i++) {
                    row.put(unquote(header[i]), unquote(cells[i]));
                }
                rows.add(row);
            }
            return rows;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes a sorted {@code key=value} summary. */
    public static void writeSummary(String name, Map<String, ?> values) {
        StringBuilder text = new StringBuilder();
        for (Map.Entry<String, ?> entry : new TreeMap<>(values).entrySet()) {
            text.append(entry.getKey()).append('=').append(format(entry.getValue())).append('\n');
        }
        try {
            Files.writeString(file(name), text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static Properties readSummary(Path path) {
        Properties properties = new Properties();
        try (var in = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
            properties.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return properties;
    }

    private static String unquote(String cell) {
        String trimmed = cell.strip();
        if (trimmed.length() >= 2 && trimmed.startsWith("\"") && trimmed.endsWith("\"")) {
            return trimmed.substring(1, trimmed.length() - 1);
        }
        return trimmed;
    }

    private static String format(Object value) {
        if (value instanceof Double d) {
            return String.format(Locale.ROOT, "%.4f", d);
        }
        if (value instanceof Float f) {
            return String.format(Locale.ROOT, "%.4f", f);
        }
        return String.valueOf(value);
    }
}
