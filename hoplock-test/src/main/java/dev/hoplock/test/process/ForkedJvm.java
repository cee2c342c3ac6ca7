package dev.hoplock.test.process;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A child JVM running a main class on this JVM's class path, with a small heap and a quick-start JIT. Every line it
 * prints on stdout is handed, in order, to the consumer given at start (on a daemon reader thread of this JVM) and
 * copied to {@code <dir>/<name>.out}; its stderr (logs) goes to {@code <dir>/<name>.err}.
 *
 * <p>Signals go through the process handle, never {@link Process#destroy()}, so that this JVM's end of the child's
 * stdout stays open and the lines the child prints while it stops still arrive. {@link #close()} ends a child that
 * is still running forcibly.
 */
public final class ForkedJvm implements AutoCloseable {

    private final String name;
    private final Process process;
    private final Thread reader;

    private ForkedJvm(String name, Process process, Thread reader) {
        this.name = name;
        this.process = process;
        this.reader = reader;
    }

    /**
     * Starts {@code mainClass} with {@code args} in a new JVM whose environment is this one's plus
     * {@code environment} (for secrets that must not be on a command line).
     *
     * @param name names the child's files and reader thread
     * @param dir where the child's {@code .out} and {@code .err} files go; created if missing
     * @param onLine receives each stdout line, in order, on the reader thread
     */
    public static ForkedJvm start(Class<?> mainClass, String name, Path dir, Map<String, String> environment,
            List<String> args, Consumer<String> onLine) throws IOException {
        Files.createDirectories(dir);
        List<String> command = new ArrayList<>(List.of(
                Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx96m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto",
                "-cp", System.getProperty("java.class.path"), mainClass.getName()));
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(dir.resolve(name + ".err").toFile());
        builder.environment().putAll(environment);
        Process process = builder.start();
        Path copy = dir.resolve(name + ".out");
        Thread reader = new Thread(() -> pump(process, copy, onLine), name + "-stdout");
        reader.setDaemon(true);
        reader.start();
        return new ForkedJvm(name, process, reader);
    }

    /** The name the child was started with. */
    public String name() {
        return name;
    }

    /** SIGKILL: the child gets no chance to run shutdown hooks (an elector in it does not release). */
    public void kill() {
        process.toHandle().destroyForcibly();
    }

    /** SIGTERM: the child's shutdown hooks run (an elector closed by one releases its lease). */
    public void stop() {
        process.toHandle().destroy();
    }

    /**
     * Waits until the child has exited and every line it printed has been handed over.
     *
     * @return false if that did not happen within {@code millis}
     */
    public boolean awaitExit(long millis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        if (!process.waitFor(millis, TimeUnit.MILLISECONDS)) {
            return false;
        }
        reader.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        return !reader.isAlive();
    }

    /**
     * Stops the child with SIGTERM and waits up to {@code grace} for it to exit and its lines to arrive; then ends it
     * as {@link #close()} does if it is still running.
     */
    public void stopWithin(Duration grace) throws InterruptedException {
        if (process.isAlive()) {
            stop();
            awaitExit(grace.toMillis());
        }
        close();
    }

    /** Ends the child with SIGKILL if it is still running, and waits up to 10 s for it to be gone. */
    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static void pump(Process process, Path copy, Consumer<String> onLine) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8)); Writer out = Files.newBufferedWriter(copy, StandardCharsets.UTF_8)) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                onLine.accept(line);
                out.write(line);
                out.write('\n');
                out.flush();
            }
        } catch (IOException ended) {
            // killed: what was read has been handed over
        }
    }
}
