package dev.hoplock.test;

import dev.hoplock.core.election.ElectionEvent;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Everything one fuzz run observed, written concurrently by the workers, the backend wrappers and the event
 * subscribers of all its electors, and read once at the end as {@link Observations} for {@link FuzzChecker}.
 *
 * <p>Thread-safe. Work instants are kept per term as the first and last instant and a count, so memory stays
 * bounded by the number of terms, not by the number of checks.
 */
final class FuzzJournal {

    /**
     * One instant of leader work: {@code nanos} was read after the scope was opened and before a check of the same
     * scope said it still leads at {@code generation}, so it lies inside that term.
     */
    record TermWork(String elector, long generation, long firstNanos, long lastNanos, long instants) {
    }

    /**
     * A write the store reported as done: taken by the store at one instant in {@code [calledNanos, answeredNanos]};
     * {@code release} when the record written is a released one (no owner, expired).
     */
    record StoreWrite(String writer, long generation, boolean release, long calledNanos, long answeredNanos) {
    }

    /** The last instant at which a scope of {@code elector}'s term at {@code generation} was still open. */
    record OpenScope(String elector, long generation, long openNanos) {
    }

    /** The Acquired and Lost events of one elector, in delivery order; {@code complete} once the stream ended. */
    record Trace(String elector, List<ElectionEvent> events, boolean complete) {
    }

    /** A snapshot of the journal for the checks. */
    record Observations(List<TermWork> work, List<OpenScope> scopes, List<StoreWrite> writes, List<Trace> traces,
                        List<String> failures) {
    }

    private final Map<String, Map<Long, long[]>> work = new ConcurrentHashMap<>();
    private final Map<String, Map<Long, Long>> scopes = new ConcurrentHashMap<>();
    private final Queue<StoreWrite> writes = new ConcurrentLinkedQueue<>();
    private final Queue<EventTrace> traces = new ConcurrentLinkedQueue<>();
    private final Queue<String> failures = new ConcurrentLinkedQueue<>();

    final AtomicInteger acquisitions = new AtomicInteger();
    final AtomicInteger backendStalls = new AtomicInteger();
    final AtomicInteger workerStalls = new AtomicInteger();
    final AtomicInteger stepDowns = new AtomicInteger();
    final AtomicInteger loopPauses = new AtomicInteger();
    final AtomicInteger restarts = new AtomicInteger();
    final AtomicInteger freezes = new AtomicInteger();

    /** Records one instant of work by {@code elector} in its term at {@code generation}. */
    void worked(String elector, long generation, long nanos) {
        long[] term = work.computeIfAbsent(elector, e -> new ConcurrentHashMap<>())
                .computeIfAbsent(generation, g -> new long[] {nanos, nanos, 0});
        synchronized (term) {
            term[0] = Math.min(term[0], nanos);
            term[1] = Math.max(term[1], nanos);
            term[2]++;
        }
    }

    /** Records that a scope of {@code elector}'s term at {@code generation} was still open at {@code nanos}. */
    void scopeOpen(String elector, long generation, long nanos) {
        scopes.computeIfAbsent(elector, e -> new ConcurrentHashMap<>()).merge(generation, nanos, Math::max);
    }

    void written(StoreWrite write) {
        writes.add(write);
    }

    void traced(EventTrace trace) {
        traces.add(trace);
    }

    /** Something went wrong outside the checked properties (a worker threw, a close hung); fails the run. */
    void failed(String failure) {
        failures.add(failure);
    }

    /** How many terms had at least one instant of work so far. */
    int termsWithWork() {
        return work.values().stream().mapToInt(Map::size).sum();
    }

    Observations observations() {
        List<TermWork> terms = new ArrayList<>();
        work.forEach((elector, byGeneration) -> byGeneration.forEach((generation, term) -> {
            synchronized (term) {
                terms.add(new TermWork(elector, generation, term[0], term[1], term[2]));
            }
        }));
        terms.sort(Comparator.comparingLong(TermWork::generation).thenComparingLong(TermWork::firstNanos));
        List<OpenScope> open = new ArrayList<>();
        scopes.forEach((elector, byGeneration) -> byGeneration.forEach((generation, nanos) ->
                open.add(new OpenScope(elector, generation, nanos))));
        List<Trace> snapshots = traces.stream().map(EventTrace::snapshot).toList();
        return new Observations(terms, open, List.copyOf(writes), snapshots, List.copyOf(failures));
    }
}
