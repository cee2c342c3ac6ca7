package dev.hoplock.bench.requests;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** Requests one instance sent to its store, by kind (HTTP method, or JDBC call), with the time of each. */
public final class RequestCounter {

    private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();
    private final List<Sent> sent = new ArrayList<>();

    private final Map<String, LongAdder> nanos = new ConcurrentHashMap<>();

    void add(String kind) {
        counts.computeIfAbsent(kind, k -> new LongAdder()).increment();
        synchronized (sent) {
            sent.add(new Sent(kind, System.nanoTime()));
        }
    }

    /** {@link #add(String)} for a request that took {@code tookNanos} from its sending to its answer. */
    void add(String kind, long tookNanos) {
        add(kind);
        nanos.computeIfAbsent(kind, k -> new LongAdder()).add(tookNanos);
    }

    /** The time spent in the requests timed so far, by kind, in nanoseconds. */
    public Map<String, Long> nanos() {
        Map<String, Long> copy = new TreeMap<>();
        nanos.forEach((kind, sum) -> copy.put(kind, sum.sum()));
        return copy;
    }

    /** A copy of the counts so far. */
    public Map<String, Long> snapshot() {
        Map<String, Long> copy = new TreeMap<>();
        counts.forEach((kind, count) -> copy.put(kind, count.sum()));
        return copy;
    }

    /** Every request so far with its {@code System.nanoTime()}. */
    public List<Sent> sent() {
        synchronized (sent) {
            return List.copyOf(sent);
        }
    }

    /** {@code after - before}, per kind. */
    public static Map<String, Long> difference(Map<String, Long> after, Map<String, Long> before) {
        Map<String, Long> result = new TreeMap<>();
        after.forEach((kind, count) -> {
            long delta = count - before.getOrDefault(kind, 0L);
            if (delta != 0) {
                result.put(kind, delta);
            }
        });
        return result;
    }

    /** One request. */
    public record Sent(String kind, long nanos) {
    }
}
