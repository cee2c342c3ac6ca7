package dev.hoplock.s3.process;

import dev.hoplock.s3.process.EventLog.Received;
import dev.hoplock.s3.server.TestDirs;
import dev.hoplock.test.process.ForkedJvm;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Three electors in three JVMs compete for one lease key over an S3 server: one leads at a time; when the leader is
 * killed with SIGKILL another takes over within TTL + two polls + slack, and not before the dead leader's lease
 * expired;
 * when the leader is stopped gracefully (SIGTERM, shutdown hook closes the elector, which releases) the last one
 * takes over within about one poll interval; generations strictly increase. Used by {@link ElectorProcessesTest}
 * (S3Mock) and the Ceph RGW tests; {@link #close()} stops every process.
 */
final class FailoverScenario implements AutoCloseable {

    private static final Duration TTL = Duration.ofSeconds(2);
    private static final Duration POLL = Duration.ofMillis(200);
    /** JVM scheduling on a loaded 2-core machine, the S3 round trips of the takeover, and the stdout pipe. */
    private static final Duration SLACK = Duration.ofMillis(1500);
    /**
     * The latest a follower may take over after kill -9, by the elector's rule 4 ({@code TakeoverDecision}): a held
     * record is taken only once the follower has seen the same version for a whole TTL, at the first poll after that.
     * The last renewal can come just before the kill, and the follower first sees it at its next poll, up to a poll
     * later; a TTL after that sighting, the poll that may take over can again come up to a poll later. So TTL + two
     * polls, plus the slack for the round trips and the pipe. (TTL + one poll, as before, left the slack to absorb a
     * whole poll of the product's own schedule: 2,624 ms of a 3,700 ms bound on an idle run.)
     */
    private static final Duration TAKEOVER_BOUND = TTL.plus(POLL.multipliedBy(2)).plus(SLACK);
    /** How long the test waits at most for an event, so that a too-slow takeover is measured rather than lost. */
    private static final Duration PATIENCE = Duration.ofSeconds(20);

    private final Map<String, ForkedJvm> processes = new LinkedHashMap<>();
    private final EventLog log = new EventLog();

    /** Stops every elector process still running. */
    @Override
    public void close() throws InterruptedException {
        for (ForkedJvm process : processes.values()) {
            process.stopWithin(Duration.ofSeconds(5));
        }
    }

    /**
     * Runs the scenario against the S3 server at {@code endpoint}, {@code environment} passed to each elector JVM
     * (credentials, see {@link ElectorProcessMain}), and prints the measured takeover and handover times.
     */
    void run(String store, URI endpoint, String bucket, Map<String, String> environment) throws Exception {
        String run = UUID.randomUUID().toString().substring(0, 8);
        Path dir = TestDirs.target().resolve("elector-processes").resolve(run);
        String prefix = "t/processes-" + run + "/";
        for (String owner : List.of("node-a", "node-b", "node-c")) {
            processes.put(owner, ForkedJvm.start(ElectorProcessMain.class, owner, dir, environment,
                    List.of(endpoint.toString(), bucket, prefix, "election", owner, Long.toString(TTL.toMillis()),
                            Long.toString(POLL.toMillis())), text -> log.add(EventLine.parse(text))));
        }

        // One leader, and both others following it.
        Received first = await("a first leader; logs in " + dir).atMost(Duration.ofSeconds(60))
                .until(() -> log.acquired(0).orElse(null), r -> r != null);
        String firstLeader = first.line().owner();
        await("both followers see " + firstLeader + ", and it has renewed").atMost(PATIENCE)
                .until(() -> others(firstLeader).stream().allMatch(f -> log.observed(f, firstLeader))
                        && log.last(firstLeader, "RENEWED", "expires").isPresent());
        // The holder of the latest term is killed: the first leader, unless a stalled renewal let another take over.
        String leader1 = log.lines(l -> l.is("ACQUIRED")).stream().reduce((a, b) -> b).orElseThrow().owner();
        List<String> followers = others(leader1);

        // kill -9 of the leader: a follower takes over within TTL + two polls + slack, not before the lease expired.
        // Under load a leader's renewal can stall past its term, which then ends and a new one begins (the same
        // owner again, or a follower once the lease expired): legitimate terms, so the takeover is the first term
        // that another elector begins after the kill, not the n-th term of the run.
        int termsBeforeKill = log.lines(l -> l.is("ACQUIRED")).size();
        long killedAt = System.currentTimeMillis();
        long killedNanos = System.nanoTime();
        processes.get(leader1).kill();
        Received second = await("a leader after killing " + leader1).atMost(PATIENCE)
                .until(() -> log.acquired(termsBeforeKill, leader1).orElse(null), r -> r != null);
        Duration takeover = Duration.ofNanos(second.receivedNanos() - killedNanos);
        String leader2 = second.line().owner();
        long leader1Expiry = Math.max(log.last(leader1, "ACQUIRED", "expires").orElseThrow(),
                log.last(leader1, "RENEWED", "expires").orElse(0L));

        assertThat(leader2).isIn(followers);
        assertThat(takeover).as("takeover after kill -9 (TTL %s, poll %s)", TTL, POLL)
                .isLessThanOrEqualTo(TAKEOVER_BOUND);
        assertThat(second.line().number("at")).as("new leader only after the dead leader's lease expired")
                .isGreaterThanOrEqualTo(leader1Expiry);

        // Graceful stop of the leader: it releases, and the last elector takes over within about one poll.
        String last = others(leader1, leader2).get(0);
        await(last + " sees " + leader2).atMost(PATIENCE).until(() -> log.observed(last, leader2));
        int termsBeforeStop = log.lines(l -> l.is("ACQUIRED")).size();
        long stoppedNanos = System.nanoTime();
        processes.get(leader2).stop();
        Received third = await("a leader after stopping " + leader2).atMost(PATIENCE)
                .until(() -> log.acquired(termsBeforeStop, leader2).orElse(null), r -> r != null);
        Duration handover = Duration.ofNanos(third.receivedNanos() - stoppedNanos);

        assertThat(third.line().owner()).isEqualTo(last);
        assertThat(handover).as("handover after a graceful stop (poll %s)", POLL)
                .isLessThanOrEqualTo(POLL.plus(SLACK));
        assertThat(processes.get(leader2).awaitExit(PATIENCE.toMillis())).as(leader2 + " exits").isTrue();
        assertThat(log.lines(l -> l.owner().equals(leader2) && l.is("LOST")))
                .as("%s's last term ends with its stop; %s", leader2, log)
                .last().extracting(l -> l.fields().get("cause")).isEqualTo("STOPPED");

        System.out.printf("elector processes on " + store + ": takeover after kill -9 %d ms (bound %d), handover after stop %d ms"
                + " (bound %d)%n", takeover.toMillis(), TAKEOVER_BOUND.toMillis(), handover.toMillis(),
                POLL.plus(SLACK).toMillis());

        // Every term of the run (three on an idle machine; more when a stalled renewal ended one): generations
        // strictly increase in the order the terms began, and no term begins before the previous one ended.
        List<EventLine> acquisitions = log.lines(l -> l.is("ACQUIRED")).stream()
                .sorted(java.util.Comparator.comparingLong((EventLine l) -> l.number("at"))).toList();
        assertThat(acquisitions).as("the terms of the run: %s", log).hasSizeGreaterThanOrEqualTo(3)
                .extracting(l -> l.number("generation")).isSorted().doesNotHaveDuplicates();
        // A term ends at its LOST line (at the kill for the killed leader), and at the latest when its lease expires:
        // a leader stalled past its term publishes LOST late, but it led only until its deadline, before the expiry.
        List<long[]> terms = new ArrayList<>();
        for (EventLine acquired : acquisitions) {
            String owner = acquired.owner();
            long generation = acquired.number("generation");
            long lost = log.lines(l -> l.is("LOST") && l.owner().equals(owner) && l.number("generation") == generation)
                    .stream().mapToLong(l -> l.number("at")).findFirst()
                    .orElse(owner.equals(leader1) ? killedAt : Long.MAX_VALUE);
            long expires = log.lines(l -> (l.is("ACQUIRED") || l.is("RENEWED")) && l.owner().equals(owner)
                    && l.number("generation") == generation).stream().mapToLong(l -> l.number("expires")).max()
                    .orElseThrow();
            terms.add(new long[] {acquired.number("at"), Math.min(lost, expires)});
        }
        assertTermsDoNotOverlap(terms);
    }

    private List<String> others(String... excluded) {
        List<String> others = new ArrayList<>(processes.keySet());
        others.removeAll(List.of(excluded));
        return others;
    }

    private void assertTermsDoNotOverlap(List<long[]> terms) {
        for (int i = 1; i < terms.size(); i++) {
            assertThat(terms.get(i)[0]).as("term %d starts after term %d ended; %s", i + 1, i, log)
                    .isGreaterThanOrEqualTo(terms.get(i - 1)[1]);
        }
    }
}
