package dev.hoplock.chaos;

import dev.hoplock.chaos.FencingLog.Attempt;
import dev.hoplock.chaos.NodeProcess.Event;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * The chaos run's verdict on what the nodes did, for every {@link Primitive}: the same checks, made per resource (the
 * elector's one resource, each lock name, each key), over the downstream store's attempts and the nodes' events.
 * <ul>
 *   <li><b>overlaps</b>: a lower token's acting check was true after a higher token's had been (from the monotonic
 *       readings just before and after the check that allowed each write: a lower token whose latest "before" is
 *       later than a higher token's earliest "after" acted while the higher one did);</li>
 *   <li><b>tokens acquired by two owners</b> ({@code ACQUIRED} lines of two owners with one token on one
 *       resource), and acquisitions seen out of token order (reported only);</li>
 *   <li><b>stale appends accepted</b> by the fencing log: accepted after a newer token's term began on that resource.
 *       With a database sink these are <em>late writes</em> (in token order, allowed by the fence); the database's own
 *       verdict is {@link FencedTable#verify()}.</li>
 * </ul>
 * Every finding that fails the run is added to {@link Findings#failures()}.
 */
final class ActingChecker {

    /** What {@link #check} found. */
    record Findings(int overlaps, int terms, int shared, int outOfOrder, int staleAccepted, int lateInTokenOrder,
                    int staleRefused, List<String> failures) {
    }

    private ActingChecker() {
    }

    /**
     * Judges {@code attempts} (accepted and refused writes) and {@code events} (every node's lines);
     * {@code database} is true for a database sink, whose fence decides instead of the term's begin.
     */
    static Findings check(List<Attempt> attempts, List<Event> events, boolean database) {
        List<String> failures = new ArrayList<>();
        Map<String, List<Attempt>> byResource = new TreeMap<>();
        for (Attempt attempt : attempts) {
            byResource.computeIfAbsent(attempt.resource(), r -> new ArrayList<>()).add(attempt);
        }
        int overlaps = 0;
        for (Map.Entry<String, List<Attempt>> resource : byResource.entrySet()) {
            overlaps += overlaps(resource.getKey(), resource.getValue(), failures);
        }

        // Terms: first sign of each token per resource; a token held by two owners; tokens out of order.
        Map<String, TreeMap<Long, Long>> termBegan = new TreeMap<>();
        Map<String, Map<Long, Set<String>>> holders = new TreeMap<>();
        Map<String, Long> lastToken = new HashMap<>();
        int outOfOrder = 0;
        for (Event e : events) {
            if (e.type().equals("ACQUIRED")) {
                termBegan.computeIfAbsent(e.resource(), r -> new TreeMap<>()).merge(e.generation(), e.nanos(), Math::min);
                holders.computeIfAbsent(e.resource(), r -> new TreeMap<>())
                        .computeIfAbsent(e.generation(), g -> new TreeSet<>()).add(e.owner());
                long last = lastToken.getOrDefault(e.resource(), 0L);
                if (e.generation() <= last) {
                    outOfOrder++;
                }
                lastToken.put(e.resource(), Math.max(last, e.generation()));
            }
        }
        int shared = 0;
        int terms = 0;
        for (Map.Entry<String, Map<Long, Set<String>>> resource : holders.entrySet()) {
            terms += resource.getValue().size();
            Map<Long, Set<String>> twice = new TreeMap<>();
            resource.getValue().forEach((token, owners) -> {
                if (owners.size() > 1) {
                    twice.put(token, owners);
                }
            });
            shared += twice.size();
            if (!twice.isEmpty()) {
                failures.add(twice.size() + " token(s) of " + resource.getKey() + " acquired by two owners: " + twice);
            }
        }

        // Stale appends accepted: received after a newer token's term had begun on the same resource.
        int staleAccepted = 0;
        int lateInTokenOrder = 0;
        int staleRefused = 0;
        for (Attempt attempt : attempts) {
            if (!attempt.accepted()) {
                staleRefused++;
                continue;
            }
            for (Map.Entry<Long, Long> newer : termBegan.getOrDefault(attempt.resource(), new TreeMap<>()).entrySet()) {
                if (newer.getKey() > attempt.generation() && newer.getValue() < attempt.receivedNanos()) {
                    if (database) {
                        lateInTokenOrder++;
                        break;
                    }
                    staleAccepted++;
                    failures.add("STALE ACCEPTED on " + attempt.resource() + ": " + attempt.owner() + " token "
                            + attempt.generation() + " accepted " + ms(attempt.receivedNanos() - newer.getValue())
                            + " ms after token " + newer.getKey() + " began");
                    break;
                }
            }
        }
        return new Findings(overlaps, terms, shared, outOfOrder, staleAccepted, lateInTokenOrder, staleRefused,
                failures);
    }

    /** Overlaps on one resource: a lower token acting (check true) after a higher token's check was. */
    private static int overlaps(String resource, List<Attempt> attempts, List<String> failures) {
        TreeMap<Long, Long> latestBefore = new TreeMap<>();
        TreeMap<Long, Long> earliestAfter = new TreeMap<>();
        for (Attempt attempt : attempts) {
            latestBefore.merge(attempt.generation(), attempt.beforeNanos(), Math::max);
            earliestAfter.merge(attempt.generation(), attempt.afterNanos(), Math::min);
        }
        int overlaps = 0;
        long maxBeforeOfLower = Long.MIN_VALUE;
        for (Map.Entry<Long, Long> token : earliestAfter.entrySet()) {
            if (maxBeforeOfLower != Long.MIN_VALUE && maxBeforeOfLower > token.getValue()) {
                overlaps++;
                failures.add("OVERLAP on " + resource + ": a token below " + token.getKey() + " acted "
                        + ms(maxBeforeOfLower - token.getValue()) + " ms after token " + token.getKey() + " did");
            }
            maxBeforeOfLower = Math.max(maxBeforeOfLower, Objects.requireNonNull(latestBefore.get(token.getKey()),
                    "every token with an after time has a before time"));
        }
        return overlaps;
    }

    private static long ms(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(nanos);
    }
}
