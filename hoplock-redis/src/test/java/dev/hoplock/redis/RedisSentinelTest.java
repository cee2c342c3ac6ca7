package dev.hoplock.redis;

import dev.hoplock.core.backend.Durability;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.StoreCapabilities;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.redis.server.SentinelSetup;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Optional;

import static dev.hoplock.redis.RedisDurabilityTest.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Through Sentinel: a backend given the Sentinels' URI writes to the primary they name, follows it through a
 * {@code SENTINEL FAILOVER} (the old primary drops its clients; the next call asks the Sentinels again), and with
 * {@code WAIT 1} a version acknowledged before the failover is on the new primary after it.
 */
class RedisSentinelTest {

    @Test
    void aBackendFollowsThePrimaryThroughAFailoverAndKeepsWhatWaitAcknowledged() throws Exception {
        try (SentinelSetup setup = SentinelSetup.start(Duration.ofSeconds(1), "--appendonly", "yes",
                "--appendfsync", "always");
                RedisBackend backend = RedisBackend.builder().uri(setup.uri()).waitForReplicas(1)
                        .requestTimeout(Duration.ofSeconds(3)).build()) {
            assertThat(backend.describe()).startsWith("redis-sentinel://127.0.0.1:").endsWith("/0#mymaster prefix"
                    + " hoplock:");
            // Through the Sentinels too, the check reads the replica's own persistence.
            StoreCapabilities capabilities = backend.verify();
            assertThat(capabilities.durability()).as(capabilities.durabilityDetail()).isEqualTo(Durability.KEPT);
            assertThat(capabilities.durabilityDetail()).contains("1 replica connected", "replica 127.0.0.1:"
                    + setup.replica().port() + " appendonly yes, appendfsync always");
            int before = setup.primaryPort();
            Handle written = ((WriteResult.Written) backend.write("leader", Handle.NONE, bytes("before"),
                    Duration.ofSeconds(3))).handle();

            setup.failover();
            int after = setup.awaitNewPrimary(before, Duration.ofSeconds(30));
            // The old primary turns into a replica of the new one; WAIT 1 needs it back in sync.
            long t0 = System.nanoTime();
            await("the old primary replicates the new one").atMost(Duration.ofSeconds(60))
                    .until(() -> String.valueOf(setup.node(after).command("INFO", "replication"))
                            .matches("(?s).*connected_slaves:1.*state=online.*"));
            System.out.printf("sentinel test: new primary %d, replica in sync after %d ms%n", after,
                    (System.nanoTime() - t0) / 1_000_000);

            Optional<StoredObject> read = await("a read through the new primary").atMost(Duration.ofSeconds(30))
                    .ignoreExceptions().until(() -> backend.read("leader", Duration.ofSeconds(2)), Optional::isPresent);
            assertThat(read.get().handle()).as("the version acknowledged before the failover").isEqualTo(written);
            assertThat(backend.write("leader", written, bytes("after"), Duration.ofSeconds(3)))
                    .isInstanceOf(WriteResult.Written.class);
            assertThat(setup.node(after).command("HGET", "hoplock:leader", "record")).isEqualTo("after");
        }
    }
}
