package dev.hoplock.nats;

import dev.hoplock.core.election.Elector;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.nats.server.NatsBinary;
import dev.hoplock.nats.server.NatsCluster;
import dev.hoplock.nats.server.NatsServer;
import io.nats.client.Connection;
import io.nats.client.Nats;
import io.nats.client.Options;
import io.nats.client.api.StreamInfo;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Failover on a three-node nats-server cluster with an R3 bucket, in every build: on a binary whose clustered
 * compare-and-swap is atomic ({@link NatsBinary#clusterCapable()}: nats-server 2.10 from Debian 13's package with
 * {@code sync_interval: always} when the machine's is older), one round of each scenario at TTL 4 s with 10 s pauses
 * (the module's pom); {@code -Pnats-cluster} runs the measurement of docs/stores/nats.md (3 rounds, TTL 10 s, 20 s
 * pauses; minutes). Three electors in this JVM, each over a {@link NatsBackend} on an application
 * connection of its own to a different node, and a {@link LeadershipSampler} asking all three every 2 ms. Scenarios,
 * each repeated {@code hoplock.nats.cluster.rounds} times, at TTL {@code hoplock.nats.cluster.ttlSeconds}, pausing
 * for {@code hoplock.nats.cluster.pauseSeconds}:
 * <ol>
 *   <li>the bucket's stream leader node killed with SIGKILL (then restarted);</li>
 *   <li>the stream leader node paused with SIGSTOP (cut off from its peers and its clients), then continued;</li>
 *   <li>the node of the leading elector's connection paused with SIGSTOP, then continued;</li>
 *   <li>durability: a write acknowledged, then every node killed with SIGKILL at once and restarted: the write is
 *       there.</li>
 * </ol>
 * Every scenario asserts 0 overlaps (no sample with two leaders) and rising generations, and prints the time from the
 * fault to the end of the old term and to the first sample of the next; docs/stores/nats.md has the figures.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class NatsClusterFailoverTest {

    private static final Duration TTL = Duration.ofSeconds(Long.getLong("hoplock.nats.cluster.ttlSeconds", 10));
    private static final Duration PAUSE = Duration.ofSeconds(Long.getLong("hoplock.nats.cluster.pauseSeconds", 20));
    private static final int ROUNDS = Integer.getInteger("hoplock.nats.cluster.rounds", 3);
    private static final String BUCKET = "failover";

    private NatsBinary binary;
    private NatsCluster cluster;
    private volatile Map<String, Elector> electors = Map.of();
    private final Map<String, NatsBackend> backends = new LinkedHashMap<>();
    private final Map<String, Connection> connectionOf = new LinkedHashMap<>();
    private final List<Connection> connections = new ArrayList<>();
    private String key;
    private int generationOfElectors;
    private LeadershipSampler sampler;
    private final List<String> figures = new ArrayList<>();

    @BeforeAll
    void startClusterAndElectors() throws Exception {
        binary = NatsBinary.clusterCapable();
        cluster = NatsCluster.start("hop", "", binary);
        await("an R3 bucket on the new cluster").atMost(Duration.ofSeconds(60)).ignoreExceptions()
                .pollInterval(Duration.ofMillis(500)).until(() -> {
                    try (Connection c = connect(0)) {
                        NatsBackend.builder().connection(c).bucket(BUCKET).replicas(3).createBucket(true)
                                .requestTimeout(Duration.ofSeconds(5)).build().close();
                    }
                    return true;
                });
        key = "failover/leader-" + UUID.randomUUID().toString().substring(0, 8);
        sampler = new LeadershipSampler(() -> electors);
        freshElectors();
    }

    /**
     * Closes the electors of the last round and starts three new ones, each on a new connection to its own node, so
     * that every round starts with one elector per node (clients that reconnected during a fault stay where they
     * went). Owner names carry the round, so terms of different rounds are told apart.
     */
    private void freshElectors() throws Exception {
        electors.values().forEach(Elector::close);
        generationOfElectors++;
        Map<String, Elector> next = new LinkedHashMap<>();
        for (int i = 0; i < 3; i++) {
            String owner = "r" + generationOfElectors + "-elector-" + (i + 1);
            Connection connection = connect(i);
            connections.add(connection);
            connectionOf.put(owner, connection);
            NatsBackend backend = NatsBackend.builder().connection(connection).bucket(BUCKET).replicas(3)
                    .requestTimeout(Duration.ofSeconds(5)).build();
            backends.put(owner, backend);
            next.put(owner, Elector.builder(backend, key).owner(owner).ttl(TTL).build());
        }
        electors = next;
        next.values().forEach(Elector::start);
        await("a leader among the new electors").atMost(TTL.multipliedBy(4)).until(() -> leader().isPresent());
    }

    /** The node the elector's connection is on now. */
    private String nodeOf(String owner) {
        String url = Objects.requireNonNull(connectionOf.get(owner), "every elector has a connection").getConnectedUrl();
        return cluster.nodes().stream().filter(n -> url != null && url.endsWith(":" + n.port())).map(NatsServer::name)
                .findFirst().orElse("(not connected)");
    }

    @AfterAll
    void stopAll() throws Exception {
        try {
            if (sampler != null) {
                sampler.close();
                System.out.println("NATS cluster failover figures (TTL " + TTL.toMillis() + " ms, nats-server "
                        + connections.get(0).getServerInfo().getVersion() + ", jetstream {"
                        + binary.jetStreamOptions() + "}):");
                figures.forEach(f -> System.out.println("  " + f));
                assertThat(sampler.overlaps()).as("samples with two leaders").isEmpty();
                assertThat(sampler.fallingGenerations()).as("generations that did not rise").isEmpty();
            }
        } finally {
            electors.values().forEach(Elector::close);
            for (Connection c : connections) {
                c.close();
            }
            if (cluster != null) {
                cluster.close();
            }
        }
    }

    private Connection connect(int node) throws Exception {
        // As the backend's own connections: a server that stops answering is left after two unanswered pings.
        return Nats.connect(new Options.Builder().servers(cluster.urlsStartingAt(node)).noRandomize()
                .maxReconnects(-1).reconnectWait(Duration.ofMillis(250)).connectionTimeout(Duration.ofSeconds(2))
                .pingInterval(Duration.ofSeconds(2)).maxPingsOut(2).build());
    }

    private Optional<String> leader() {
        return electors.entrySet().stream().filter(e -> e.getValue().isLeader()).map(Map.Entry::getKey).findFirst();
    }

    /** The node that leads the bucket's stream, asked through a connection to a live node. */
    private String streamLeader() {
        return await("a stream leader").atMost(Duration.ofSeconds(60)).ignoreExceptions()
                .pollInterval(Duration.ofMillis(200)).until(() -> {
                    for (NatsServer node : cluster.nodes()) {
                        if (!node.isAlive()) {
                            continue;
                        }
                        try (Connection c = Nats.connect(new Options.Builder().server(node.url())
                                .connectionTimeout(Duration.ofSeconds(1)).build())) {
                            StreamInfo info = c.jetStreamManagement().getStreamInfo("KV_" + BUCKET);
                            String leader = info.getClusterInfo().getLeader();
                            if (leader != null) {
                                return leader;
                            }
                        } catch (Exception pausedOrDown) {
                            // ask the next node
                        }
                    }
                    return null;
                }, l -> l != null);
    }

    /** Waits until the stream has a leader and all three replicas are current again. */
    private void awaitHealthy() {
        await("three current replicas").atMost(Duration.ofSeconds(90)).ignoreExceptions()
                .pollInterval(Duration.ofMillis(500)).until(() -> {
                    try (Connection c = Nats.connect(new Options.Builder().server(cluster.nodes().get(0).url())
                            .connectionTimeout(Duration.ofSeconds(1)).build())) {
                        StreamInfo info = c.jetStreamManagement().getStreamInfo("KV_" + BUCKET);
                        return info.getClusterInfo().getLeader() != null && info.getClusterInfo().getReplicas()
                                .stream().allMatch(r -> r.isCurrent() && !r.isOffline());
                    }
                });
        try {
            freshElectors();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Records what the fault did to the term that ran at the fault: it went on (renewals resumed before its deadline),
     * or it ended, and when the next term began (ms after the fault).
     */
    private void measure(String scenario, int round, long faultNanos, String victimNote) {
        LeadershipSampler.Term before = sampler.termAt(faultNanos);
        long keptAfter = TTL.multipliedBy(2).toNanos();
        await("a new term, or the old one going on, after " + scenario).atMost(Duration.ofSeconds(120))
                .until(() -> {
                    LeadershipSampler.Term next = sampler.firstTermAfter(faultNanos);
                    LeadershipSampler.Term now = sampler.termAt(System.nanoTime());
                    return next != null && !next.equals(before) && (before == null
                            || next.generation() != before.generation())
                            || before != null && now != null && now.generation() == before.generation()
                            && now.lastNanos() - faultNanos > keptAfter;
                });
        LeadershipSampler.Term next = sampler.firstTermAfter(faultNanos);
        if (before != null && (next == null || next.generation() == before.generation())) {
            figures.add(String.format("%s #%d (%s): %s went on leading (no interruption)", scenario, round,
                    victimNote, before.owner()));
            return;
        }
        long ended = before == null ? -1
                : (Objects.requireNonNull(sampler.termAt(faultNanos), "a term had begun").lastNanos() - faultNanos) / 1_000_000;
        long began = (Objects.requireNonNull(next, "a leader after the fault").firstNanos() - faultNanos) / 1_000_000;
        figures.add(String.format("%s #%d (%s): old term %s ended %d ms after the fault; %s led %d ms after the"
                + " fault (gap %d ms)", scenario, round, victimNote, before == null ? "-" : before.owner(), ended,
                next.owner(), began, began - Math.max(ended, 0)));
    }

    @Test
    @Order(1)
    void streamLeaderKilled() throws Exception {
        for (int round = 1; round <= ROUNDS; round++) {
            awaitHealthy();
            String node = streamLeader();
            String lead = leader().orElse("-");
            long fault = System.nanoTime();
            cluster.node(node).kill();
            measure("stream leader kill -9", round, fault, "node " + node + ", lease leader " + lead + " on "
                    + nodeOf(lead));
            cluster.node(node).start();
        }
        assertThat(sampler.overlaps()).isEmpty();
    }

    @Test
    @Order(2)
    void streamLeaderPaused() throws Exception {
        for (int round = 1; round <= ROUNDS; round++) {
            awaitHealthy();
            String node = streamLeader();
            String lead = leader().orElse("-");
            long fault = System.nanoTime();
            cluster.node(node).pause();
            try {
                measure("stream leader SIGSTOP", round, fault, "node " + node + ", lease leader " + lead + " on "
                        + nodeOf(lead));
                await().pollDelay(PAUSE).atMost(PAUSE.plusSeconds(1)).until(() -> true); // the partition lasts
            } finally {
                cluster.node(node).resume();
            }
        }
        awaitHealthy();
        assertThat(sampler.overlaps()).isEmpty();
    }

    @Test
    @Order(3)
    void leadersNodePaused() throws Exception {
        for (int round = 1; round <= ROUNDS; round++) {
            awaitHealthy();
            String lead = leader().orElseThrow();
            String node = nodeOf(lead);
            String streamLeader = streamLeader();
            long fault = System.nanoTime();
            cluster.node(node).pause();
            try {
                measure("lease leader's node SIGSTOP", round, fault, "node " + node + " of " + lead
                        + ", stream leader " + streamLeader);
                await().pollDelay(PAUSE).atMost(PAUSE.plusSeconds(1)).until(() -> true);
            } finally {
                cluster.node(node).resume();
            }
        }
        awaitHealthy();
        assertThat(sampler.overlaps()).isEmpty();
    }

    @Test
    @Order(4)
    void anAcknowledgedWriteSurvivesKill9OfEveryNode() throws Exception {
        electors.values().forEach(Elector::close);
        for (int round = 1; round <= ROUNDS; round++) {
            awaitHealthyStream();
            NatsBackend backend = Objects.requireNonNull(backends.get(electors.keySet().iterator().next()),
                    "every elector has a backend");
            String key = "durable/" + round;
            byte[] content = ("acknowledged " + round + " " + UUID.randomUUID()).getBytes(StandardCharsets.UTF_8);
            WriteResult written = backend.write(key, Handle.NONE, content, Duration.ofSeconds(5));
            assertThat(written).isInstanceOf(WriteResult.Written.class);
            for (NatsServer node : cluster.nodes()) {
                node.kill();
            }
            long killed = System.nanoTime();
            for (NatsServer node : cluster.nodes()) {
                node.startNoWaitForTests();
            }
            Optional<StoredObject> read = await("the key readable after restarting every node")
                    .atMost(Duration.ofSeconds(120)).ignoreExceptions().pollInterval(Duration.ofMillis(250))
                    .until(() -> backend.read(key, Duration.ofSeconds(2)), r -> true);
            Handle acknowledged = ((WriteResult.Written) written).handle();
            figures.add(String.format("kill -9 of all three nodes right after an acknowledged write #%d: readable %d"
                    + " ms after the kill, %s", round, (System.nanoTime() - killed) / 1_000_000,
                    read.map(r -> !java.util.Arrays.equals(r.content(), content) ? "OTHER BYTES"
                            : r.handle().equals(acknowledged) ? "the write is there"
                            : "the write is there at another revision (" + acknowledged.value() + " acknowledged, "
                            + r.handle().value() + " now: the write was applied again on recovery)")
                            .orElse("THE WRITE IS LOST")));
            assertThat(read).as("the acknowledged write after kill -9 of every node").isPresent();
            assertThat(read.get().content()).as("the bytes after kill -9 of every node").isEqualTo(content);
            assertThat(Long.parseLong(read.get().handle().value())).as("the revision after kill -9 of every node")
                    .isGreaterThanOrEqualTo(Long.parseLong(acknowledged.value()));
        }
    }

    private void awaitHealthyStream() {
        await("three current replicas").atMost(Duration.ofSeconds(90)).ignoreExceptions()
                .pollInterval(Duration.ofMillis(500)).until(() -> {
                    try (Connection c = Nats.connect(new Options.Builder().server(cluster.nodes().get(0).url())
                            .connectionTimeout(Duration.ofSeconds(1)).build())) {
                        StreamInfo info = c.jetStreamManagement().getStreamInfo("KV_" + BUCKET);
                        return info.getClusterInfo().getLeader() != null && info.getClusterInfo().getReplicas()
                                .stream().allMatch(r -> r.isCurrent() && !r.isOffline());
                    }
                });
    }
}
