package dev.hoplock.redis;

import dev.hoplock.core.backend.Durability;
import dev.hoplock.core.backend.StoreCapabilities;
import dev.hoplock.redis.server.ClusterSetup;
import dev.hoplock.redis.server.RedisServer;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The durability rules on a Redis Cluster of three masters with one replica each, all syncing every write: the check
 * reads every master and, over the cluster connection, every replica; without {@code WAIT} a cluster failover can lose
 * a write, with {@code WAIT} for the one replica of each master it is kept. In every build.
 */
class RedisClusterDurabilityTest {

    @Test
    void everyMasterAndEveryReplicaIsReadAndWaitForEachMastersReplicaKeepsWrites() throws Exception {
        try (ClusterSetup cluster = ClusterSetup.start(1, "--appendonly", "yes", "--appendfsync", "always")) {
            try (RedisBackend noWait = RedisBackend.builder().cluster(cluster.seeds())
                    .requestTimeout(Duration.ofSeconds(5)).build()) {
                StoreCapabilities capabilities = noWait.verify();
                assertThat(capabilities.durability()).as(capabilities.durabilityDetail())
                        .isEqualTo(Durability.LOST_ON_FAILOVER);
            }
            try (RedisBackend waiting = RedisBackend.builder().cluster(cluster.seeds()).waitForReplicas(1)
                    .minimumDurability(Durability.KEPT).requestTimeout(Duration.ofSeconds(5)).build()) {
                StoreCapabilities capabilities = waiting.verify();
                assertThat(capabilities.durability()).as(capabilities.durabilityDetail()).isEqualTo(Durability.KEPT);
                for (RedisServer replica : cluster.replicas()) {
                    assertThat(capabilities.durabilityDetail()).contains("replica 127.0.0.1:" + replica.port()
                            + " appendonly yes, appendfsync always");
                }
            }
        }
    }
}
