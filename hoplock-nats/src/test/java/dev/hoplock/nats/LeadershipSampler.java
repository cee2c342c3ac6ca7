package dev.hoplock.nats;

import dev.hoplock.core.election.Elector;
import dev.hoplock.core.Lease;
import org.jspecify.annotations.Nullable;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Asks every elector of one JVM (the current set, which a test may replace) {@code isLeader()} every 2 ms and records who led when: an overlap is a sample in which
 * two electors said yes, and a term is a run of samples with one leader at one generation. Generations must rise from
 * term to term. Readings are {@link System#nanoTime()}.
 */
final class LeadershipSampler implements AutoCloseable {

    /** A run of samples in which {@code owner} led at {@code generation}. */
    record Term(String owner, long generation, long firstNanos, long lastNanos) {
    }

    private final java.util.function.Supplier<Map<String, Elector>> electors;
    private final List<Term> terms = new ArrayList<>();
    private final List<String> overlaps = new ArrayList<>();
    private final Thread thread;
    private volatile boolean running = true;

    LeadershipSampler(java.util.function.Supplier<Map<String, Elector>> electors) {
        this.electors = electors;
        this.thread = new Thread(this::run, "leadership-sampler");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        while (running) {
            String leader = null;
            long generation = -1;
            for (Map.Entry<String, Elector> e : electors.get().entrySet()) {
                if (e.getValue().isLeader()) {
                    long g = e.getValue().currentLease().map(Lease::generation).orElse(-1L);
                    if (leader != null) {
                        record(leader + " and " + e.getKey() + " both lead (generations " + generation + ", " + g + ")");
                    }
                    leader = e.getKey();
                    generation = g;
                }
            }
            long now = System.nanoTime();
            if (leader != null) {
                synchronized (this) {
                    Term last = terms.isEmpty() ? null : terms.get(terms.size() - 1);
                    if (last != null && last.owner().equals(leader) && last.generation() == generation) {
                        terms.set(terms.size() - 1, new Term(leader, generation, last.firstNanos(), now));
                    } else {
                        terms.add(new Term(leader, generation, now, now));
                    }
                }
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2)); // the sampling period, not synchronisation
        }
    }

    private synchronized void record(String overlap) {
        overlaps.add(overlap);
    }

    synchronized List<Term> terms() {
        return List.copyOf(terms);
    }

    synchronized List<String> overlaps() {
        return List.copyOf(overlaps);
    }

    /** The last term that had begun by {@code nanos}, if any. */
    synchronized @Nullable Term termAt(long nanos) {
        Term found = null;
        for (Term term : terms) {
            if (term.firstNanos() <= nanos) {
                found = term;
            }
        }
        return found;
    }

    /** The first term that begins after {@code nanos}, or null. */
    synchronized @Nullable Term firstTermAfter(long nanos) {
        return terms.stream().filter(t -> t.firstNanos() > nanos).findFirst().orElse(null);
    }

    /** Generations rise from term to term (a renewal keeps the generation, a new term takes a higher one). */
    synchronized List<String> fallingGenerations() {
        List<String> problems = new ArrayList<>();
        for (int i = 1; i < terms.size(); i++) {
            if (terms.get(i).generation() <= terms.get(i - 1).generation()) {
                problems.add(terms.get(i - 1) + " then " + terms.get(i));
            }
        }
        return problems;
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join();
    }
}
