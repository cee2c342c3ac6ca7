package dev.hoplock.test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A child JVM on this test's class path that talks in lines. Its stdout is read on a daemon thread so that waiting
 * for a line is bounded; its stderr goes to a file that failure messages quote. {@link #close()} kills it.
 */
final class ChildJvm implements AutoCloseable {

    private static final String END = "\u0000end-of-stream";

    private final String name;
    private final Process process;
    private final Path stderr;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

    private ChildJvm(String name, Process process, Path stderr) {
        this.name = name;
        this.process = process;
        this.stderr = stderr;
        Thread reader = new Thread(this::pump, name + "-stdout");
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts {@code mainClass} with {@code args} in a new JVM, writing its stderr to {@code stderr}. */
    static ChildJvm start(String name, Class<?> mainClass, Path stderr, String... args) throws IOException {
        return start(name, List.of(), mainClass, stderr, args);
    }

    /**
     * Like {@link #start(String, Class, Path, String...)}, with {@code launcher} put before the {@code java} command
     * (for example {@code setpriv} with its options).
     */
    static ChildJvm start(String name, List<String> launcher, Class<?> mainClass, Path stderr, String... args)
            throws IOException {
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> command = new ArrayList<>(launcher);
        command.addAll(List.of(java, "-Xmx64m", "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), mainClass.getName()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.to(stderr.toFile()))
                .start();
        return new ChildJvm(name, process, stderr);
    }

    /** Waits up to {@code timeout} for the next line of stdout, failing with the child's stderr if none comes. */
    String nextLine(Duration timeout) throws InterruptedException {
        String line = lines.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (line == null || line.equals(END)) {
            throw new AssertionError(name + (line == null ? " printed nothing within " + timeout : " closed stdout")
                    + (process.isAlive() ? "" : " (exit " + process.exitValue() + ")") + "; stderr:\n" + stderrText());
        }
        return line;
    }

    /** Sends one line to the child's stdin. */
    void send(String line) throws IOException {
        Writer stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        stdin.write(line + "\n");
        stdin.flush();
    }

    /** Waits for the child to exit and returns its exit code, failing if it does not exit in time. */
    int waitForExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError(name + " did not exit within " + timeout + "; stderr:\n" + stderrText());
        }
        return process.exitValue();
    }

    String stderrText() {
        try {
            return Files.readString(stderr);
        } catch (IOException e) {
            return "(stderr unreadable: " + e + ")";
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private void pump() {
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                lines.add(line);
            }
        } catch (IOException e) {
            // The process was killed; the end marker below tells the waiting test.
        } finally {
            lines.add(END);
        }
    }
}
