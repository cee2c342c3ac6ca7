package dev.hoplock.test;

import dev.hoplock.core.election.ElectionEvent;
import dev.hoplock.test.FuzzJournal.Observations;
import dev.hoplock.test.FuzzJournal.OpenScope;
import dev.hoplock.test.FuzzJournal.StoreWrite;
import dev.hoplock.test.FuzzJournal.TermWork;
import dev.hoplock.test.FuzzJournal.Trace;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The properties a fuzz run must show, checked on its {@link Observations}. Each check uses only facts that hold
 * however slow the machine is, so a violation is a real one:
 * <ul>
 *   <li><b>No overlap</b>: every recorded instant lies inside its term (see {@link LeaderWorker}), so for terms
 *       sorted by generation, the last instant of each must come before the first instant of the next. This also
 *       says the terms follow each other in the order of their generations. A generation recorded by two electors
 *       is a violation by itself.</li>
 *   <li><b>Events</b>: per elector, {@code Acquired} and {@code Lost} alternate, starting with {@code Acquired},
 *       each {@code Lost} names the generation of the {@code Acquired} before it, the generations of one elector
 *       strictly rise, and the stream ends (after close) outside a term. Across electors no generation is acquired
 *       twice, and every term with work has its elector's {@code Acquired}. The events' delivery times are not
 *       compared across electors: they are delivered on each elector's own event thread, so their order proves
 *       nothing about the order of the terms; the work instants above do that.</li>
 *   <li><b>Fencing tokens in the store</b>: if one write was answered before another was sent, the store took them
 *       in that order, so the later one's generation must not be lower, and must be higher if another elector wrote
 *       it.</li>
 *   <li><b>Release after work</b>: a release is sent only once every scope of the released term (and of earlier
 *       terms of the same elector) was closed, so that the next leader never starts while this one still works. A
 *       scope's last instant is read before its close, and the release's before it is sent; the first must come
 *       before the second.</li>
 *   <li><b>Not vacuous</b>: at least the requested number of acquisitions, and work recorded in two terms.</li>
 * </ul>
 */
final class FuzzChecker {

    private static final int MAX_REPORTED_PER_RULE = 5;

    private FuzzChecker() {
    }

    /** The properties, each checked (and reported by {@link ElectorFuzzTest}) on its own. */
    enum Property {
        /** The run itself went as planned (nothing threw or hung) and was not vacuous. */
        RUN_COMPLETED,
        /** No two terms' work overlaps, terms follow in generation order, one elector per generation. */
        ONE_LEADER_AT_A_TIME,
        /** Acquired and Lost alternate per elector with rising generations; work only in announced terms. */
        EVENTS,
        /** Store writes' generations never fall, and rise at every change of writer. */
        FENCING_TOKENS,
        /** A release is sent only after every scope of the released term closed. */
        RELEASE_AFTER_WORK
    }

    /** The violations of each property, each a sentence naming the electors, generations and instants involved. */
    static Map<Property, List<String>> check(Observations observations, int minAcquisitions) {
        Map<Property, List<String>> violations = new EnumMap<>(Property.class);
        List<String> run = new ArrayList<>(observations.failures());
        run.addAll(notVacuous(observations, minAcquisitions));
        violations.put(Property.RUN_COMPLETED, run);
        List<String> overlap = new ArrayList<>(limit(noOverlap(observations.work())));
        overlap.addAll(limit(oneLeaderPerGeneration(observations.work())));
        violations.put(Property.ONE_LEADER_AT_A_TIME, overlap);
        List<String> events = new ArrayList<>(limit(events(observations.traces())));
        events.addAll(limit(workHasAcquired(observations.work(), observations.traces())));
        violations.put(Property.EVENTS, events);
        violations.put(Property.FENCING_TOKENS, limit(storeGenerations(observations.writes())));
        violations.put(Property.RELEASE_AFTER_WORK,
                limit(releaseAfterWork(observations.writes(), observations.scopes())));
        return violations;
    }

    /** The shortest gap between the last instant of a term and the first of the next, for the run's summary. */
    static String closestHandover(List<TermWork> work) {
        long closest = Long.MAX_VALUE;
        for (int i = 1; i < work.size(); i++) {
            closest = Math.min(closest, work.get(i).firstNanos() - work.get(i - 1).lastNanos());
        }
        return closest == Long.MAX_VALUE ? "none (fewer than two terms with work)" : millis(closest);
    }

    static List<String> oneLeaderPerGeneration(List<TermWork> work) {
        List<String> found = new ArrayList<>();
        Map<Long, String> leaderOf = new HashMap<>();
        for (TermWork term : work) {
            String other = leaderOf.putIfAbsent(term.generation(), term.elector());
            if (other != null && !other.equals(term.elector())) {
                found.add("generation " + term.generation() + " was led by two electors: " + other + " and "
                        + term.elector());
            }
        }
        return found;
    }

    static List<String> noOverlap(List<TermWork> work) {
        List<String> found = new ArrayList<>();
        for (int i = 1; i < work.size(); i++) {
            TermWork before = work.get(i - 1);
            TermWork after = work.get(i);
            if (after.firstNanos() - before.lastNanos() <= 0) {
                found.add("two leaders at once: " + after.elector() + " worked at generation " + after.generation()
                        + " " + millis(before.lastNanos() - after.firstNanos()) + " before " + before.elector()
                        + " last worked at generation " + before.generation() + " (instants " + after.firstNanos()
                        + " <= " + before.lastNanos() + " on System.nanoTime)");
            }
        }
        return found;
    }

    static List<String> events(List<Trace> traces) {
        List<String> found = new ArrayList<>();
        Map<Long, String> acquiredBy = new HashMap<>();
        for (Trace trace : traces) {
            String elector = trace.elector();
            if (!trace.complete()) {
                found.add("the event stream of " + elector + " did not complete after close");
            }
            Long leading = null;
            long lastAcquired = Long.MIN_VALUE;
            for (ElectionEvent event : trace.events()) {
                if (event instanceof ElectionEvent.Acquired acquired) {
                    long generation = acquired.lease().generation();
                    if (leading != null) {
                        found.add(elector + " acquired generation " + generation + " while still in its term at"
                                + " generation " + leading + " (no Lost in between)");
                    }
                    if (generation <= lastAcquired) {
                        found.add(elector + " acquired generation " + generation + " after generation " + lastAcquired
                                + ": its generations must strictly rise");
                    }
                    String other = acquiredBy.putIfAbsent(generation, elector);
                    if (other != null) {
                        found.add("generation " + generation + " was acquired twice: by " + other + " and by "
                                + elector);
                    }
                    leading = generation;
                    lastAcquired = Math.max(lastAcquired, generation);
                } else if (event instanceof ElectionEvent.Lost lost) {
                    long generation = lost.lease().generation();
                    if (leading == null) {
                        found.add(elector + " lost generation " + generation + " without having acquired it");
                    } else if (leading != generation) {
                        found.add(elector + " lost generation " + generation + " while its term was at generation "
                                + leading);
                    }
                    leading = null;
                }
            }
            if (trace.complete() && leading != null) {
                found.add(elector + " closed without a Lost event for its term at generation " + leading);
            }
        }
        return found;
    }

    static List<String> workHasAcquired(List<TermWork> work, List<Trace> traces) {
        Set<String> acquired = new HashSet<>();
        for (Trace trace : traces) {
            for (ElectionEvent event : trace.events()) {
                if (event instanceof ElectionEvent.Acquired a) {
                    acquired.add(trace.elector() + "@" + a.lease().generation());
                }
            }
        }
        List<String> found = new ArrayList<>();
        for (TermWork term : work) {
            if (!acquired.contains(term.elector() + "@" + term.generation())) {
                found.add(term.elector() + " worked at generation " + term.generation()
                        + " without an Acquired event for it");
            }
        }
        return found;
    }

    static List<String> storeGenerations(List<StoreWrite> writes) {
        List<String> found = new ArrayList<>();
        for (StoreWrite earlier : writes) {
            for (StoreWrite later : writes) {
                if (earlier.answeredNanos() - later.calledNanos() >= 0) {
                    continue;
                }
                boolean otherWriter = !earlier.writer().equals(later.writer());
                if (later.generation() < earlier.generation()
                        || otherWriter && later.generation() == earlier.generation()) {
                    found.add(later.writer() + " wrote generation " + later.generation() + " "
                            + millis(later.calledNanos() - earlier.answeredNanos()) + " after " + earlier.writer()
                            + "'s write of generation " + earlier.generation() + " was answered: fencing tokens must"
                            + (otherWriter ? " rise at every change of writer" : " never go down"));
                }
            }
        }
        return found;
    }

    static List<String> releaseAfterWork(List<StoreWrite> writes, List<OpenScope> scopes) {
        List<String> found = new ArrayList<>();
        for (StoreWrite release : writes) {
            if (!release.release()) {
                continue;
            }
            for (OpenScope scope : scopes) {
                if (scope.elector().equals(release.writer()) && scope.generation() <= release.generation()
                        && scope.openNanos() - release.calledNanos() >= 0) {
                    found.add(release.writer() + " released generation " + release.generation() + " while its scope"
                            + " at generation " + scope.generation() + " was still open ("
                            + millis(scope.openNanos() - release.calledNanos()) + " after the release was sent): the"
                            + " next leader can start while this one still works");
                }
            }
        }
        return found;
    }

    static List<String> notVacuous(Observations observations, int minAcquisitions) {
        List<String> found = new ArrayList<>();
        long acquisitions = observations.traces().stream()
                .flatMap(trace -> trace.events().stream())
                .filter(ElectionEvent.Acquired.class::isInstance)
                .count();
        if (acquisitions < minAcquisitions) {
            found.add("liveness: only " + acquisitions + " acquisitions, at least " + minAcquisitions
                    + " expected (the run would prove little)");
        }
        if (observations.work().size() < 2) {
            found.add("liveness: work was recorded in only " + observations.work().size()
                    + " terms, at least 2 expected (no handover was checked)");
        }
        return found;
    }

    private static List<String> limit(List<String> found) {
        if (found.size() <= MAX_REPORTED_PER_RULE) {
            return found;
        }
        List<String> shown = new ArrayList<>(found.subList(0, MAX_REPORTED_PER_RULE));
        shown.add("... and " + (found.size() - MAX_REPORTED_PER_RULE) + " more like the above");
        return shown;
    }

    private static String millis(long nanos) {
        return String.format(Locale.ROOT, "%.3f ms", nanos / 1e6);
    }
}
