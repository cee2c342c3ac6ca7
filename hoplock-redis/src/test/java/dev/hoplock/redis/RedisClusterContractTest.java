package dev.hoplock.redis;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.Durability;
import dev.hoplock.core.backend.StoreCapabilities;
import dev.hoplock.redis.server.ClusterSetup;
import dev.hoplock.redis.server.RedisServer;
import dev.hoplock.test.BackendContractTest;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Objects;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The backend contract on a Redis Cluster of three masters made by {@code redis-cli --cluster create}: every lease is
 * one key, so one slot, and every script names that one key, so the contract holds as on one server; the keys of the
 * tests spread over the three masters. {@link #recreateContainer()} runs {@code FLUSHALL} on every master. In every
 * build (about 10 s); it was in the {@code redis-failover} profile until the cluster was shown to start that fast.
 */
class RedisClusterContractTest extends BackendContractTest {

    private static @Nullable ClusterSetup cluster;
    private static @Nullable RedisBackend backend;

    @Override
    protected Backend backend() throws Exception {
        synchronized (RedisClusterContractTest.class) {
            if (cluster == null) {
                cluster = ClusterSetup.start();
            }
            if (backend == null) {
                backend = RedisBackend.builder().cluster(cluster.seeds()).requestTimeout(Duration.ofSeconds(5))
                        .build();
            }
            return backend;
        }
    }

    @Override
    protected void recreateContainer() throws Exception {
        for (RedisServer master : Objects.requireNonNull(cluster, "started by backend()").masters()) {
            master.command("FLUSHALL");
        }
    }

    @Test
    void everyMasterIsCheckedAndTheKeysSpreadOverThem() throws Exception {
        StoreCapabilities capabilities = store().verify();
        assertThat(capabilities.store()).startsWith("redis-cluster://127.0.0.1:");
        assertThat(capabilities.durability()).isEqualTo(Durability.LOST_ON_RESTART);
        for (RedisServer master : Objects.requireNonNull(cluster, "started by backend()").masters()) {
            assertThat(capabilities.durabilityDetail()).contains(":" + master.port() + ": Redis");
        }
        for (int i = 0; i < 30; i++) {
            created(newKey());
        }
        for (RedisServer master : Objects.requireNonNull(cluster, "started by backend()").masters()) {
            assertThat((Long) master.command("DBSIZE")).as("keys on %s", master.port()).isPositive();
        }
    }

    private void created(String key) throws Exception {
        create(key, "x");
    }

    @AfterAll
    static void stopCluster() {
        if (backend != null) {
            backend.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }
}
