package dev.hoplock.test.process;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Failover across processes on a real store: three child JVMs, each an elector over the store (a main class that
 * hands its arguments to {@link ElectorChildMain}). The leader is killed with SIGKILL (no release): another process
 * must take over within 3 x TTL. Then the new leader is stopped with SIGTERM (its shutdown hook closes the elector,
 * which releases): the last process must take over within 3 x TTL, and the stopped one must report that it lost
 * its lease by closing. Checked from what the children recorded: one leader at a time (a term's first
 * {@code isLeader()} check that said yes comes after the previous term's last one, or after the kill of its
 * process), and generations rising at every change of holder.
 *
 * <p>A store module extends this with a class that makes a store of its own for each run ({@link #prepareStore()},
 * {@link #cleanUpStore()}, called before the children start and after they are gone) and says how a child reaches
 * it ({@link #electorMain()}, {@link #storeArguments()}).
 */
public abstract class ElectorProcessesTest {

    private static final Duration POLL = Duration.ofMillis(150);
    /** How long to wait for a JVM to start and elect on a loaded machine; not a measured bound. */
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    private final Map<String, ForkedJvm> jvms = new LinkedHashMap<>();
    private final KeyValueLines lines = new KeyValueLines();

    /** Creates the store (table, index, ...) the children will share, before any child starts. */
    protected abstract void prepareStore() throws Exception;

    /** Removes the store {@link #prepareStore()} made, after every child is gone. */
    protected abstract void cleanUpStore() throws Exception;

    /** The main class of a child: it calls {@link ElectorChildMain#run}. */
    protected abstract Class<?> electorMain();

    /** The arguments with which a child's main class opens the store, before the elector's own. */
    protected abstract List<String> storeArguments();

    /** Names the store in the report line, such as "PostgreSQL". */
    protected abstract String storeName();

    /** Names this run's store (such as its table), for the directory of the children's output. */
    protected abstract String runName();

    /** The electors' TTL; 3 s unless a store needs more time for its requests. */
    protected Duration ttl() {
        return Duration.ofSeconds(3);
    }

    @BeforeEach
    protected final void prepareStoreBeforeChildren() throws Exception {
        prepareStore();
    }

    @AfterEach
    protected final void stopChildrenThenCleanUp() throws Exception {
        for (ForkedJvm jvm : jvms.values()) {
            jvm.close();
        }
        cleanUpStore();
    }

    @Test
    void takeoverAfterKillAndHandoverAfterStopWithOneLeaderAtATime() throws Exception {
        Duration ttl = ttl();
        Path dir = Path.of("target", "elector-processes", runName());
        for (String owner : List.of("node-a", "node-b", "node-c")) {
            List<String> args = new ArrayList<>(storeArguments());
            args.addAll(List.of("processes/leader", owner, Long.toString(ttl.toMillis()),
                    Long.toString(POLL.toMillis())));
            jvms.put(owner, ForkedJvm.start(electorMain(), owner, dir, Map.of(), args, lines::add));
        }

        KeyValueLine first = await("a first leader; output in " + dir).atMost(PATIENCE)
                .until(() -> firstLeads(l -> true), Optional::isPresent).orElseThrow();
        String leader1 = first.owner();
        List<String> followers = others(leader1);
        await("both followers see " + leader1).atMost(PATIENCE)
                .until(() -> followers.stream().allMatch(f -> observed(f, leader1)));

        long killedNanos = System.nanoTime();
        Objects.requireNonNull(jvms.get(leader1), "a leader is one of the JVMs").kill();
        KeyValueLine second = await("a leader after killing " + leader1).atMost(ttl.multipliedBy(3).plus(PATIENCE))
                .until(() -> firstLeads(l -> !l.owner().equals(leader1)), Optional::isPresent).orElseThrow();
        Duration takeover = Duration.ofNanos(second.number("first") - killedNanos);
        assertThat(takeover).as("takeover after kill -9 of %s (TTL %s)", leader1, ttl)
                .isLessThan(ttl.multipliedBy(3));

        String leader2 = second.owner();
        String last = others(leader1, leader2).get(0);
        await(last + " sees " + leader2).atMost(PATIENCE).until(() -> observed(last, leader2));
        long stoppedNanos = System.nanoTime();
        Objects.requireNonNull(jvms.get(leader2), "a leader is one of the JVMs").stop();
        KeyValueLine third = await("a leader after stopping " + leader2).atMost(ttl.multipliedBy(3).plus(PATIENCE))
                .until(() -> firstLeads(l -> l.owner().equals(last)), Optional::isPresent).orElseThrow();
        Duration handover = Duration.ofNanos(third.number("first") - stoppedNanos);
        assertThat(handover).as("handover after a graceful stop of %s", leader2).isLessThan(ttl.multipliedBy(3));
        assertThat(jvms.get(leader2).awaitExit(PATIENCE.toMillis())).as(leader2 + " exits after SIGTERM").isTrue();
        assertThat(lines.matching(l -> l.owner().equals(leader2) && l.is("LOST")))
                .extracting(l -> l.fields().get("cause")).as("%s lost its lease by closing", leader2)
                .containsExactly("STOPPED");
        System.out.printf("elector processes on %s: takeover after kill -9 %d ms, handover after SIGTERM"
                + " %d ms (TTL %d ms, poll %d ms)%n", storeName(), takeover.toMillis(), handover.toMillis(),
                ttl.toMillis(), POLL.toMillis());

        // Every term but the live leader's has reported its end (or its process was killed).
        await("every earlier term reported its end").atMost(PATIENCE).until(() -> terms(leader1, killedNanos)
                .stream().filter(t -> t.end() == Long.MAX_VALUE).count() == 1);
        List<Term> terms = terms(leader1, killedNanos);
        assertThat(terms).extracting(Term::owner).as("terms in order of their first check; %s", lines)
                .startsWith(leader1, leader2).endsWith(last);
        for (int i = 1; i < terms.size(); i++) {
            Term before = terms.get(i - 1);
            Term after = terms.get(i);
            assertThat(after.generation()).as("generation of %s above that of %s", after, before)
                    .isGreaterThan(before.generation());
            assertThat(after.start()).as("%s began after %s ended", after, before).isGreaterThan(before.end());
        }
    }

    /** One term as its process's checks saw it; {@code end} is MAX_VALUE while it lasts. */
    private record Term(String owner, long generation, long start, long end) {
    }

    /**
     * The terms by their first check. A term ends at the reading before its last check that said "leader" (ENDED);
     * a term of the killed process that reported no end ends, at the latest, at the kill.
     */
    private List<Term> terms(String killed, long killedNanos) {
        List<Term> terms = new ArrayList<>();
        for (KeyValueLine leads : lines.matching(l -> l.is("LEADS"))) {
            long generation = leads.number("generation");
            Optional<KeyValueLine> ended = lines.matching(l -> l.is("ENDED") && l.owner().equals(leads.owner())
                    && l.number("generation") == generation).stream().findFirst();
            long end = ended.map(l -> l.number("last"))
                    .orElse(leads.owner().equals(killed) ? killedNanos : Long.MAX_VALUE);
            terms.add(new Term(leads.owner(), generation, leads.number("first"), end));
        }
        terms.sort(Comparator.comparingLong(Term::start));
        return terms;
    }

    private Optional<KeyValueLine> firstLeads(Predicate<KeyValueLine> which) {
        return lines.matching(l -> l.is("LEADS") && which.test(l)).stream().findFirst();
    }

    private boolean observed(String observer, String holder) {
        return !lines.matching(l -> l.owner().equals(observer) && l.is("OBSERVED")
                && holder.equals(l.fields().get("holder"))).isEmpty();
    }

    private List<String> others(String... excluded) {
        List<String> others = new ArrayList<>(jvms.keySet());
        others.removeAll(List.of(excluded));
        return others;
    }
}
