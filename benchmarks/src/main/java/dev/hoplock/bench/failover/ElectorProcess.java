package dev.hoplock.bench.failover;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import org.jspecify.annotations.Nullable;

/**
 * One {@link ElectorChild} JVM as {@link FailoverBench} sees it: its process, the file its stderr goes to, and a
 * daemon thread that parses its stdout into {@link Event}s for the bench's queue, delivering every line the child
 * wrote before it died. What the child reported about itself ({@code OBSERVED}, {@code CLOSED}) is kept here by the
 * bench's event handling.
 */
final class ElectorProcess {

    /** One line of a child: {@code ev=TYPE owner=... nano=... wall=...}. */
    record Event(String type, String owner, long nano, Map<String, String> fields) {

        boolean is(String wanted) {
            return type.equals(wanted);
        }

        static @Nullable Event parse(String line) {
            if (!line.startsWith("ev=")) {
                return null;
            }
            Map<String, String> fields = new HashMap<>();
            for (String token : line.strip().split(" ")) {
                int eq = token.indexOf('=');
                if (eq > 0) {
                    fields.put(token.substring(0, eq), token.substring(eq + 1));
                }
            }
            return new Event(Objects.requireNonNull(fields.get("ev"), "the line starts with ev="),
                    Objects.requireNonNull(fields.get("owner"), "every event names its owner"), Long.parseLong(fields.get("nano")), fields);
        }
    }

    final String owner;
    final Process process;
    final Path stderr;
    private @Nullable Thread reader;
    volatile boolean observed;
    volatile @Nullable Long closedNano;
    volatile @Nullable String holderAfterClose;

    private ElectorProcess(String owner, Process process, Path stderr) {
        this.owner = owner;
        this.process = process;
        this.stderr = stderr;
    }

    /** Starts the child JVM ({@code command}), its stderr to {@code stderr}; its stdout is not read yet. */
    static ElectorProcess start(String owner, List<String> command, Path stderr) throws IOException {
        Process process = new ProcessBuilder(command).redirectError(stderr.toFile()).start();
        return new ElectorProcess(owner, process, stderr);
    }

    /** Starts the daemon thread that delivers the child's events to {@code sink}, in the order it printed them. */
    void startReading(BlockingQueue<Event> sink) {
        Thread thread = new Thread(() -> read(sink), "read-" + owner);
        reader = thread;
        thread.setDaemon(true);
        thread.start();
    }

    /** Waits at most {@code millis} for the reader to have delivered the last line of a child that exited. */
    void awaitRead(long millis) throws InterruptedException {
        Objects.requireNonNull(reader, "startReading comes first").join(millis);
    }

    private void read(BlockingQueue<Event> sink) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                Event event = Event.parse(line);
                if (event != null) {
                    sink.add(event);
                }
            }
        } catch (IOException | RuntimeException ignored) {
            // The process died; its lines so far were delivered.
        }
    }
}
