package dev.hoplock.s3.process;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * An {@link ElectorProcessMain} JVM started by a test. Its stdout lines are parsed into the shared {@link EventLog}
 * and copied to {@code <dir>/<owner>.out}; its stderr (logs) goes to {@code <dir>/<owner>.err}. {@link #close()}
 * ends it by its process handle, forcibly if it does not exit after a grace period.
 */
final class ElectorProcess implements AutoCloseable {

    private final String owner;
    private final Process process;
    private final Thread reader;

    private ElectorProcess(String owner, Process process, Thread reader) {
        this.owner = owner;
        this.process = process;
        this.reader = reader;
    }

    static ElectorProcess start(String owner, Path dir, EventLog log, Map<String, String> environment,
            List<String> args) throws IOException {
        Files.createDirectories(dir);
        List<String> command = new ArrayList<>(List.of(
                Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx96m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto",
                "-cp", System.getProperty("java.class.path"),
                ElectorProcessMain.class.getName()));
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(dir.resolve(owner + ".err").toFile());
        builder.environment().putAll(environment);
        Process process = builder.start();
        Path out = dir.resolve(owner + ".out");
        Thread reader = new Thread(() -> pump(process, out, log), owner + "-stdout");
        reader.setDaemon(true);
        reader.start();
        return new ElectorProcess(owner, process, reader);
    }

    String owner() {
        return owner;
    }

    /**
     * kill -9: no shutdown hook, no release. (Through the process handle: {@link Process#destroyForcibly()} would
     * also close our end of its stdout.)
     */
    void kill() {
        process.toHandle().destroyForcibly();
    }

    /**
     * SIGTERM: the shutdown hook closes the elector, which releases the lease. Through the process handle, because
     * {@link Process#destroy()} also closes our end of its stdout, and the lines it prints while stopping would be
     * lost.
     */
    void stop() {
        process.toHandle().destroy();
    }

    /** Waits until the process has exited and everything it printed is in the log. */
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
            process.destroy();
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        }
    }

    private static void pump(Process process, Path out, EventLog log) {
        try (BufferedReader lines = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
             Writer copy = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
            String line;
            while ((line = lines.readLine()) != null) {
                log.add(EventLine.parse(line));
                copy.write(line);
                copy.write('\n');
                copy.flush();
            }
        } catch (IOException ended) {
            // The process was killed; what was read is in the log.
        }
    }
}
