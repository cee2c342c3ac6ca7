package dev.hoplock.core.sim;

import java.util.Map;
import java.util.TreeMap;

/** Counters of one schedule (and, merged, of a whole run): faults injected by kind, requests, terms, checks. */
final class SimStats {

    final Map<String, Long> counters = new TreeMap<>();
    long requests;
    long storeWrites;
    long holderChanges;
    long terms;
    long checks;
    long virtualNanos;

    void count(String kind) {
        counters.merge(kind, 1L, Long::sum);
    }

    void merge(SimStats other) {
        other.counters.forEach((k, v) -> counters.merge(k, v, Long::sum));
        requests += other.requests;
        storeWrites += other.storeWrites;
        holderChanges += other.holderChanges;
        terms += other.terms;
        checks += other.checks;
        virtualNanos += other.virtualNanos;
    }

    /** Faults injected, summed over the kinds whose name starts with {@code fault.}, {@code net.} or {@code sched.}. */
    long faults() {
        return counters.entrySet().stream()
                .filter(e -> e.getKey().startsWith("fault.") || e.getKey().startsWith("net.")
                        || e.getKey().startsWith("sched."))
                .mapToLong(Map.Entry::getValue).sum();
    }
}
