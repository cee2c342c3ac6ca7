package dev.hoplock.nats;

import dev.hoplock.core.election.Elector;
import dev.hoplock.core.election.ElectionEvent;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.StoreCapabilities.Capability;
import dev.hoplock.core.backend.StoreCapabilities.Support;
import dev.hoplock.core.backend.StoreCapabilities;
import dev.hoplock.core.backend.StoreNotCapableException;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.nats.server.NatsCluster;
import dev.hoplock.nats.server.NatsServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

/**
 * Compare-and-swap on an R3 bucket of a three-node cluster, raced by 8 writers for 30 rounds (each round: one key,
 * one revision expected by all). nats-server before 2.9.21 checks the expected revision of a clustered stream only on
 * the leader before replicating, so several writers can win one round: there the backend must refuse the store
 * ({@code build()} fails naming the version, {@code verify()} reports the swap {@code NOT_SUPPORTED}, an elector never
 * campaigns), and the race is counted and printed. From 2.9.21 on, exactly one writer wins every round and the store
 * is accepted. Runs with the binary under test ({@code -Dhoplock.nats.server=...}); Debian 12's is 2.9.10.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NatsClusterCasTest {

    private static final String BUCKET = "cas";
    private NatsCluster cluster;
    private boolean fixed;

    @BeforeAll
    void startCluster() throws Exception {
        fixed = NatsServer.atLeast(2, 9, 21);
        cluster = NatsCluster.start("cas", "");
        await("an R3 bucket on the new cluster").atMost(Duration.ofSeconds(60)).ignoreExceptions()
                .pollInterval(Duration.ofMillis(500)).until(() -> {
                    try {
                        builder().createBucket(true).build().close();
                    } catch (StoreNotCapableException refusedButCreated) {
                        // created; refused for leases on this server version (checked below)
                    }
                    return true;
                });
    }

    @AfterAll
    void stopCluster() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    private NatsBackendBuilder builder() {
        return NatsBackend.builder().servers(cluster.nodes().get(0).url(), cluster.nodes().get(1).url())
                .bucket(BUCKET).replicas(3).requestTimeout(Duration.ofSeconds(5));
    }

    @Test
    void theStoreIsRefusedExactlyWhenItsClusteredCompareAndSwapIsNotAtomic() throws Exception {
        if (fixed) {
            try (NatsBackend backend = builder().build()) {
                assertThat(backend.verify().support(Capability.CONDITIONAL_SWAP)).isEqualTo(Support.VERIFIED);
            }
            return;
        }
        StoreNotCapableException refused = catchThrowableOfType(StoreNotCapableException.class, builder()::build);
        assertThat(refused.getMessage()).contains("in a cluster", "fixed in nats-server 2.9.21 and 2.10.0",
                "Upgrade the servers");
        try (NatsBackend unchecked = builder().verify(false).build();
             Elector elector = Elector.builder(unchecked, "cas/leader").owner("cas-1").ttl(Duration.ofSeconds(2))
                     .build()) {
            assertThat(unchecked.verify().support(Capability.CONDITIONAL_SWAP)).isEqualTo(Support.NOT_SUPPORTED);
            List<ElectionEvent> events = new CopyOnWriteArrayList<>();
            elector.addListener(events::add);
            elector.start();
            await("the elector reports the refusal").atMost(Duration.ofSeconds(20))
                    .until(() -> events.stream().anyMatch(e -> e instanceof ElectionEvent.Problem));
            assertThat(elector.isLeader()).isFalse();
            assertThat(unchecked.read("cas/leader", Duration.ofSeconds(5))).as("nothing written").isEmpty();
        }
    }

    /**
     * The start-up check reports a replicated bucket's reads as lagging ({@link StoreCapabilities.Reads#MAY_LAG}: reads
     * answered by a stream leader that may have been deposed; docs/stores/nats.md), with the fix, so that per-key
     * ownership refuses it (OwnershipGroupTest.e0_aMemberOnAStoreWhoseReadsMayLag...), and says so in its log. A
     * one-replica bucket on the same cluster reads current.
     */
    @Test
    void aReplicatedBucketReportsReadsThatMayLagSoThatOwnershipRefusesIt() throws Exception {
        StringBuilder log = new StringBuilder();
        StoreCapabilities replicated = verified(builder(), log);
        assertThat(replicated.reads()).isEqualTo(StoreCapabilities.Reads.MAY_LAG);
        assertThat(replicated.readsDetail()).contains("'" + BUCKET + "' has 3 replicas", "one-replica bucket");
        assertThatThrownBy(() -> replicated.requireCurrentReads("ownership needs them"))
                .isInstanceOf(StoreNotCapableException.class).hasMessageContaining("reads may miss acknowledged writes");
        assertThat(log).contains("the NATS KV bucket '" + BUCKET + "' has 3 replicas",
                "per-key ownership (OwnershipGroup) refuses it");
        StringBuilder oneLog = new StringBuilder();
        StoreCapabilities one = verified(builder().bucket("one-replica").replicas(1).createBucket(true), oneLog);
        assertThat(one.reads()).isEqualTo(StoreCapabilities.Reads.CURRENT);
        assertThat(oneLog).contains("one-replica").doesNotContain("refuses it");
    }

    /** The report of the start-up check (also when it refuses the store for leases), its log lines in {@code log}. */
    private static StoreCapabilities verified(NatsBackendBuilder builder, StringBuilder log) throws Exception {
        java.io.PrintStream original = System.err;
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        try {
            System.setErr(new java.io.PrintStream(err, true, StandardCharsets.UTF_8));
            try (NatsBackend backend = builder.verify(false).build()) {
                return backend.verify();
            } catch (StoreNotCapableException refusedOnThisVersion) {
                // before 2.9.21 a clustered bucket is refused for leases too; the report comes with the refusal
                return refusedOnThisVersion.capabilities();
            }
        } finally {
            System.setErr(original);
            log.append(err.toString(StandardCharsets.UTF_8));
        }
    }

    @Test
    void racedSwapsHaveOneWinnerPerRoundOnlyFromTheFixedVersionOn() throws Exception {
        int writers = 8;
        int rounds = 30;
        int roundsWithSeveralWinners = 0;
        int mostWinners = 0;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try (NatsBackend backend = builder().verify(false).build()) {
            for (int round = 0; round < rounds; round++) {
                String key = "race/" + round;
                int r0 = round;
                // nats-server 2.9 answers the first write after the bucket's first revision was moved up with a
                // passing 503 "expected sequence does not match store" (nothing stored): the set-up write is retried.
                Handle start = await("the set-up write of round " + round).atMost(Duration.ofSeconds(20))
                        .ignoreExceptions().until(() -> ((WriteResult.Written) backend.write(key, Handle.NONE,
                                bytes("start " + r0), Duration.ofSeconds(5))).handle(), h -> true);
                CountDownLatch go = new CountDownLatch(1);
                AtomicInteger winners = new AtomicInteger();
                List<Future<?>> done = new java.util.ArrayList<>();
                for (int w = 0; w < writers; w++) {
                    int writer = w;
                    int r = round;
                    done.add(pool.submit(() -> {
                        go.await();
                        if (backend.write(key, start, bytes("writer " + writer + " round " + r),
                                Duration.ofSeconds(5)) instanceof WriteResult.Written) {
                            winners.incrementAndGet();
                        }
                        return null;
                    }));
                }
                go.countDown();
                for (Future<?> f : done) {
                    f.get();
                }
                if (winners.get() > 1) {
                    roundsWithSeveralWinners++;
                }
                mostWinners = Math.max(mostWinners, winners.get());
                if (fixed) {
                    assertThat(winners.get()).as("winners of round %d", round).isEqualTo(1);
                }
            }
        } finally {
            pool.shutdownNow();
        }
        System.out.printf("clustered compare-and-swap on nats-server %s: %d of %d rounds had several winners (at most"
                + " %d of %d writers)%n", NatsServer.version(), roundsWithSeveralWinners, rounds, mostWinners, writers);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
