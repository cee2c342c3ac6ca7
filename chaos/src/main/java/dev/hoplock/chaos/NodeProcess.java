package dev.hoplock.chaos;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * A {@link ChaosNode} JVM started by the orchestrator: its stdout lines become {@link Event}s in the shared
 * {@link Events}, its stderr goes to a file; the orchestrator kills (SIGKILL), stops (SIGSTOP) and continues (SIGCONT)
 * it by its own process id.
 */
final class NodeProcess {

    /**
     * One line a node printed, with the orchestrator's parse of its fields; {@code resource} is the line's
     * {@code resource=} field, {@link Primitive#ELECTOR_RESOURCE} for a line without one (the elector's).
     */
    record Event(String type, String owner, long nanos, long generation, String resource, String line) {
    }

    /** Every node's events, in the order the orchestrator read them; waiters are woken on each new event. */
    static final class Events {
        private final List<Event> events = new ArrayList<>();

        synchronized void add(Event event) {
            events.add(event);
            notifyAll();
        }

        synchronized List<Event> all() {
            return List.copyOf(events);
        }

        /** Waits (at most {@code timeoutNanos}) for the first event matching {@code test}; null if none came. */
        synchronized @Nullable Event await(java.util.function.Predicate<Event> test, long timeoutNanos) throws InterruptedException {
            long deadline = System.nanoTime() + timeoutNanos;
            int seen = 0;
            while (true) {
                for (; seen < events.size(); seen++) {
                    if (test.test(events.get(seen))) {
                        return events.get(seen);
                    }
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return null;
                }
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
        }
    }

    final String slot;
    final String owner;
    final boolean proxied;
    private final Process process;

    private NodeProcess(String slot, String owner, boolean proxied, Process process) {
        this.slot = slot;
        this.owner = owner;
        this.proxied = proxied;
        this.process = process;
    }

    static NodeProcess start(String slot, String owner, boolean proxied, List<String> command, Path logFile,
                             Events events) throws IOException {
        Process process = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                .start();
        NodeProcess node = new NodeProcess(slot, owner, proxied, process);
        Thread reader = new Thread(() -> node.read(events), "read-" + owner);
        reader.setDaemon(true);
        reader.start();
        return node;
    }

    private void read(Events events) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                events.add(parse(line));
            }
        } catch (IOException e) {
            // the process died
        }
    }

    private Event parse(String line) {
        String type = line.contains(" ") ? line.substring(0, line.indexOf(' ')) : line;
        String resource = text(line, "resource");
        return new Event(type, owner, field(line, "nanos"), field(line, "gen"),
                resource == null ? Primitive.ELECTOR_RESOURCE : resource, line);
    }

    private static long field(String line, String name) {
        String value = text(line, name);
        try {
            return value == null ? -1 : Long.parseLong(value);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static @Nullable String text(String line, String name) {
        int at = line.indexOf(" " + name + "=");
        if (at < 0) {
            return null;
        }
        int start = at + name.length() + 2;
        int end = line.indexOf(' ', start);
        return line.substring(start, end < 0 ? line.length() : end);
    }

    long pid() {
        return process.pid();
    }

    boolean alive() {
        return process.isAlive();
    }

    /** kill -9. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    void stop() throws IOException, InterruptedException {
        signal("STOP");
    }

    void cont() throws IOException, InterruptedException {
        signal("CONT");
    }

    private void signal(String name) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start();
        if (!kill.waitFor(5, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new IOException("kill -" + name + " " + process.pid() + " failed");
        }
    }

    @Override
    public String toString() {
        return owner + "(pid " + pid() + (proxied ? ", via proxy" : "") + ")";
    }
}
