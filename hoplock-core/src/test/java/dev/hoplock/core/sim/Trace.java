package dev.hoplock.core.sim;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The last events of one simulated schedule (virtual time, node, action), printed when a check fails so that the
 * failure can be read without a debugger; {@code -Dhoplock.sim.seed=<seed>} replays exactly the same schedule.
 */
final class Trace {

    private final int capacity;
    private final Deque<String> lines = new ArrayDeque<>();
    private long recorded;

    Trace(int capacity) {
        this.capacity = capacity;
    }

    void add(long sharedNanos, String node, String action) {
        recorded++;
        if (capacity <= 0) {
            return;
        }
        if (lines.size() == capacity) {
            lines.removeFirst();
        }
        lines.addLast(format(sharedNanos) + "  " + pad(node) + action);
    }

    long recorded() {
        return recorded;
    }

    String dump() {
        StringBuilder out = new StringBuilder();
        out.append("--- last ").append(lines.size()).append(" of ").append(recorded).append(" events (t = virtual time) ---\n");
        for (String line : lines) {
            out.append(line).append('\n');
        }
        return out.toString();
    }

    static String format(long nanos) {
        long millis = Math.floorDiv(nanos, 1_000_000L);
        return String.format("t=%8.3fs", millis / 1000.0);
    }

    private static String pad(String node) {
        String n = node == null ? "-" : node;
        return n.length() >= 10 ? n + " " : n + " ".repeat(10 - n.length());
    }
}
