package dev.hoplock.test.process;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.awaitility.Awaitility.await;

/**
 * A failover measurement over any store whose module has an {@link ElectorChildMain} main class: three elector JVMs
 * (TTL {@code ttl}, the default renew interval TTL/3, poll TTL/15), then {@code reps} times: wait for a renewal by the
 * leader and a random delay in [0, renew), so that the stop falls at a random phase of the renewal cycle; stop the
 * leader's JVM (SIGKILL, then in the second half SIGTERM, whose shutdown hook releases); measure until another JVM's
 * first {@code isLeader()} check that says yes; replace the stopped JVM by a new one that has seen the new leader.
 * For a Maven profile or a script, never the default suite: it takes minutes.
 *
 * <p>Times are {@link System#nanoTime()} readings of this and the child JVMs (CLOCK_MONOTONIC on Linux, one clock for
 * every process of the machine). What it reports, per kind of stop: from the stop to the next leader's first check,
 * and for SIGKILL also from the dead leader's last renewal (no takeover may come before one TTL after it).
 */
public final class FailoverFigures implements AutoCloseable {

    /** Percentiles of one kind of measurement, in milliseconds. */
    public record Summary(String what, int count, long p50, long p99, long min, long max) {
        @Override
        public String toString() {
            return String.format("%s: n=%d p50=%d ms p99=%d ms min=%d ms max=%d ms", what, count, p50, p99, min, max);
        }
    }

    private static final Duration PATIENCE = Duration.ofSeconds(60);

    private final Class<?> electorMain;
    private final List<String> storeArguments;
    private final Path dir;
    private final Duration ttl;
    private final Duration poll;
    private final Map<String, ForkedJvm> running = new LinkedHashMap<>();
    private final List<ForkedJvm> all = new ArrayList<>();
    private final KeyValueLines lines = new KeyValueLines();
    private final Random random = new Random();
    private int started;

    /**
     * @param electorMain    the store's child main class (it calls {@link ElectorChildMain#run})
     * @param storeArguments the arguments with which it opens the store
     * @param dir            where the children's output goes
     */
    public FailoverFigures(Class<?> electorMain, List<String> storeArguments, Path dir, Duration ttl) {
        this.electorMain = electorMain;
        this.storeArguments = List.copyOf(storeArguments);
        this.dir = dir;
        this.ttl = ttl;
        this.poll = ttl.dividedBy(15);
    }

    /** Runs {@code reps} crashes and then {@code reps} graceful stops; the summaries, in that order. */
    public List<Summary> run(int reps) throws IOException, InterruptedException {
        for (int i = 0; i < 3; i++) {
            startOne();
        }
        List<Long> crash = new ArrayList<>();
        List<Long> crashFromRenewal = new ArrayList<>();
        List<Long> graceful = new ArrayList<>();
        for (int rep = 0; rep < 2 * reps; rep++) {
            boolean kill = rep < reps;
            String leader = awaitSettledLeader();
            long marker = System.nanoTime();
            KeyValueLine renewal = await("a renewal by " + leader).atMost(PATIENCE)
                    .until(() -> lastOf(leader, "RENEWED", marker), Optional::isPresent).orElseThrow();
            LockSupport.parkNanos((long) (random.nextDouble() * ttl.dividedBy(3).toNanos()));
            long stopped = System.nanoTime();
            if (kill) {
                Objects.requireNonNull(running.remove(leader), "the leader is running").kill();
            } else {
                Objects.requireNonNull(running.remove(leader), "the leader is running").stop();
            }
            KeyValueLine next = await("a leader after stopping " + leader + "; output in " + dir).atMost(PATIENCE)
                    .until(() -> firstLeadsAfter(stopped, leader), Optional::isPresent).orElseThrow();
            long took = next.number("first") - stopped;
            if (kill) {
                crash.add(took);
                long lastRenewal = lastOf(leader, "RENEWED", marker).map(l -> l.number("nanos"))
                        .orElse(renewal.number("nanos"));
                crashFromRenewal.add(next.number("first") - lastRenewal);
            } else {
                graceful.add(took);
            }
            startOne();
        }
        return List.of(summary("SIGKILL to the next leader's first check", crash),
                summary("dead leader's last renewal to the next leader's first check", crashFromRenewal),
                summary("SIGTERM to the next leader's first check", graceful));
    }

    @Override
    public void close() throws InterruptedException {
        for (ForkedJvm jvm : all) {
            jvm.close();
        }
    }

    private void startOne() throws IOException {
        String owner = "node-" + (++started);
        List<String> args = new ArrayList<>(storeArguments);
        args.addAll(List.of("figures/leader", owner, Long.toString(ttl.toMillis()), Long.toString(poll.toMillis())));
        ForkedJvm jvm = ForkedJvm.start(electorMain, owner, dir, Map.of(), args, lines::add);
        running.put(owner, jvm);
        all.add(jvm);
    }

    /** The running leader, once every other running JVM has observed it. */
    private String awaitSettledLeader() {
        return await("a leader that every running JVM has observed; output in " + dir).atMost(PATIENCE)
                .until(() -> {
                    List<KeyValueLine> acquired = lines.matching(l -> l.is("ACQUIRED")
                            && running.containsKey(l.owner()));
                    if (acquired.isEmpty()) {
                        return null;
                    }
                    String leader = acquired.get(acquired.size() - 1).owner();
                    boolean seen = running.keySet().stream().filter(o -> !o.equals(leader)).allMatch(o ->
                            !lines.matching(l -> l.owner().equals(o) && l.is("OBSERVED")
                                    && leader.equals(l.fields().get("holder"))).isEmpty());
                    return seen ? leader : null;
                }, leader -> leader != null);
    }

    private Optional<KeyValueLine> lastOf(String owner, String type, long after) {
        List<KeyValueLine> found = lines.matching(l -> l.owner().equals(owner) && l.is(type)
                && l.number("nanos") > after);
        return found.isEmpty() ? Optional.empty() : Optional.of(found.get(found.size() - 1));
    }

    private Optional<KeyValueLine> firstLeadsAfter(long after, String excluded) {
        return lines.matching(l -> l.is("LEADS") && !l.owner().equals(excluded) && l.number("first") > after)
                .stream().findFirst();
    }

    private static Summary summary(String what, List<Long> nanos) {
        List<Long> millis = nanos.stream().map(n -> TimeUnit.NANOSECONDS.toMillis(n)).sorted().toList();
        if (millis.isEmpty()) {
            return new Summary(what, 0, 0, 0, 0, 0);
        }
        return new Summary(what, millis.size(), percentile(millis, 50), percentile(millis, 99), millis.get(0),
                millis.get(millis.size() - 1));
    }

    /** The nearest-rank percentile. */
    private static long percentile(List<Long> sorted, int p) {
        int rank = (int) Math.ceil(p / 100.0 * sorted.size());
        return sorted.get(Math.max(0, rank - 1));
    }
}
