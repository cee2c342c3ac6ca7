package dev.hoplock.elasticsearch;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A {@link SearchElectorMain} JVM started by the test. Its stdout lines are parsed into {@link Line}s in a shared
 * {@link Lines} and copied to {@code <dir>/<owner>.out}; its stderr (logs) goes to {@code <dir>/<owner>.err}. Signals
 * go through the process handle, so that our end of its stdout stays open while it prints its last lines.
 */
final class ElectorJvm implements AutoCloseable {

    /** One {@code key=value ...} line a child printed. */
    record Line(Map<String, String> fields) {

        static Line parse(String text) {
            Map<String, String> fields = new LinkedHashMap<>();
            for (String token : text.strip().split(" ")) {
                int eq = token.indexOf('=');
                if (eq <= 0) {
                    return new Line(Map.of("raw", text));
                }
                fields.put(token.substring(0, eq), token.substring(eq + 1));
            }
            return new Line(Map.copyOf(fields));
        }

        boolean is(String type) {
            return type.equals(fields.get("type"));
        }

        String owner() {
            return fields.getOrDefault("owner", "");
        }

        long number(String field) {
            return Long.parseLong(fields.get(field));
        }
    }

    /** Every line of every child, in the order the test read them. */
    static final class Lines {
        private final List<Line> lines = new CopyOnWriteArrayList<>();

        List<Line> matching(Predicate<Line> filter) {
            return lines.stream().filter(filter).toList();
        }

        @Override
        public String toString() {
            StringBuilder text = new StringBuilder();
            lines.forEach(l -> text.append(l.fields()).append('\n'));
            return text.toString();
        }
    }

    private final Process process;
    private final Thread reader;

    private ElectorJvm(Process process, Thread reader) {
        this.process = process;
        this.reader = reader;
    }

    static ElectorJvm start(String owner, Path dir, Lines lines, List<String> args) throws IOException {
        Files.createDirectories(dir);
        List<String> command = new ArrayList<>(List.of(
                Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx96m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-cp", System.getProperty("java.class.path"), SearchElectorMain.class.getName()));
        command.addAll(args);
        Process process = new ProcessBuilder(command).redirectError(dir.resolve(owner + ".err").toFile()).start();
        Path copy = dir.resolve(owner + ".out");
        Thread reader = new Thread(() -> pump(process, copy, lines), owner + "-stdout");
        reader.setDaemon(true);
        reader.start();
        return new ElectorJvm(process, reader);
    }

    /** kill -9: no shutdown hook, no release. */
    void kill() {
        process.toHandle().destroyForcibly();
    }

    /** SIGTERM: the shutdown hook closes the elector, which releases the lease. */
    void stop() {
        process.toHandle().destroy();
    }

    /** Waits until the process has exited and all it printed has been read; false if it did not in time. */
    boolean awaitExit(long millis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        if (!process.waitFor(millis, TimeUnit.MILLISECONDS)) {
            return false;
        }
        reader.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        return !reader.isAlive();
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static void pump(Process process, Path copy, Lines lines) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8)); Writer out = Files.newBufferedWriter(copy, StandardCharsets.UTF_8)) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                lines.lines.add(Line.parse(line));
                out.write(line);
                out.write('\n');
                out.flush();
            }
        } catch (IOException ended) {
            // killed: what was read is in the lines
        }
    }
}
