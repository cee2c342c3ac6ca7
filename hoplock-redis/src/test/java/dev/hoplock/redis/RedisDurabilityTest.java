package dev.hoplock.redis;

import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.BackendException.Kind;
import dev.hoplock.core.backend.Durability;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.StoreCapabilities;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.redis.server.RedisServer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Durability as a capability: what {@link RedisBackend#verify()} reports for each way of running Redis, the refusal of
 * a store below the minimum (naming the server's settings and the fix), and {@code WAIT}: a write that did not reach
 * the replicas is an unknown outcome, never a success.
 */
class RedisDurabilityTest {

    private static final String[] SYNCED = {"--appendonly", "yes", "--appendfsync", "always"};

    @Test
    void aServerWithoutPersistenceLosesWritesOnRestartAndARequiredMinimumRefusesIt() throws Exception {
        try (RedisServer plain = RedisServer.start();
                RedisBackend backend = TestRedis.builder(plain, 0).build()) {
            StoreCapabilities capabilities = backend.verify();
            assertThat(capabilities.durability()).isEqualTo(Durability.LOST_ON_RESTART);
            assertThat(capabilities.summary()).contains("acknowledged writes lost on restart", "appendonly no",
                    "0 replicas connected", "no WAIT");

            BackendException e = catchThrowableOfType(BackendException.class,
                    () -> TestRedis.builder(plain, 0).minimumDurability(Durability.LOST_ON_FAILOVER).build());
            assertThat(e.kind()).isEqualTo(Kind.MISCONFIGURED);
            assertThat(e.getMessage()).contains("acknowledged writes are lost on restart", "appendonly no",
                    "below the minimum durability LOST_ON_FAILOVER", "appendonly yes and appendfsync always",
                    "CONFIG SET appendonly yes", "minimumDurability(LOST_ON_RESTART)");
        }
    }

    @Test
    void anAppendOnlyFileSyncedOnceASecondStillLosesWritesOnRestart() throws Exception {
        try (RedisServer everysec = RedisServer.start("--appendonly", "yes", "--appendfsync", "everysec")) {
            BackendException e = catchThrowableOfType(BackendException.class,
                    () -> TestRedis.builder(everysec, 0).minimumDurability(Durability.KEPT).build());

            assertThat(e.getMessage()).contains("appendonly yes", "appendfsync everysec", "appendfsync always");
        }
    }

    @Test
    void aSyncedSingleServerKeepsWrites() throws Exception {
        try (RedisServer synced = RedisServer.start(SYNCED);
                RedisBackend backend = TestRedis.builder(synced, 0).minimumDurability(Durability.KEPT).build()) {
            StoreCapabilities capabilities = backend.verify();

            assertThat(capabilities.durability()).isEqualTo(Durability.KEPT);
            assertThat(capabilities.durabilityDetail()).contains("appendonly yes", "appendfsync always",
                    "0 replicas connected");
        }
    }

    @Test
    void anEvictingMemoryPolicyCanLoseALeaseAtAnyTime() throws Exception {
        try (RedisServer evicting = RedisServer.start(concat(SYNCED, "--maxmemory-policy", "allkeys-lru"));
                RedisBackend backend = TestRedis.builder(evicting, 0).build()) {
            StoreCapabilities capabilities = backend.verify();

            assertThat(capabilities.durability()).isEqualTo(Durability.LOST_ON_RESTART);
            assertThat(capabilities.durabilityDetail()).contains("maxmemory-policy allkeys-lru (may evict a lease)");
        }
    }

    @Test
    void aReplicaWithoutWaitLosesWritesOnFailoverAndWaitKeepsThem() throws Exception {
        try (RedisServer primary = RedisServer.start(SYNCED); RedisServer replica = RedisServer.start(SYNCED)) {
            replica.replicate(primary);
            try (RedisBackend noWait = TestRedis.builder(primary, 0).build()) {
                assertThat(noWait.verify().durability()).isEqualTo(Durability.LOST_ON_FAILOVER);
            }
            BackendException refused = catchThrowableOfType(BackendException.class,
                    () -> TestRedis.builder(primary, 0).minimumDurability(Durability.KEPT).build());
            assertThat(refused.getMessage()).contains("lost on failover", "1 replica connected", "no WAIT",
                    "waitForReplicas(1)", "whichever replica a failover promotes",
                    "replica 127.0.0.1:" + replica.port() + " appendonly yes, appendfsync always");

            try (RedisBackend waiting = TestRedis.builder(primary, 0).waitForReplicas(1)
                    .minimumDurability(Durability.KEPT).build()) {
                StoreCapabilities capabilities = waiting.verify();
                assertThat(capabilities.durability()).isEqualTo(Durability.KEPT);
                assertThat(capabilities.durabilityDetail()).contains("WAIT for 1 replica after each write");
                Handle handle = ((WriteResult.Written) waiting.write("k", Handle.NONE, bytes("a"),
                        Duration.ofSeconds(5))).handle();
                assertThat(waiting.read("k", Duration.ofSeconds(5))).hasValueSatisfying(stored ->
                        assertThat(stored.handle()).isEqualTo(handle));
                assertThat(replica.command("HGET", "hoplock:k", "version")).as("on the replica once the write"
                        + " returned").isEqualTo(handle.value());
            }

            BackendException tooMany = catchThrowableOfType(BackendException.class,
                    () -> TestRedis.builder(primary, 0).waitForReplicas(2).build());
            assertThat(tooMany.kind()).isEqualTo(Kind.MISCONFIGURED);
            assertThat(tooMany.getMessage()).contains("waits for 2 replicas", "has 1 connected",
                    "unknown outcome");
        }
    }

    /**
     * Two replicas, one of which does not sync: {@code WAIT 1} is not enough (a failover may promote the replica that
     * did not acknowledge), nor is {@code WAIT 2} while a replica that a failover could promote loses writes at its own
     * restart. Only {@code WAIT} for both, both synced, is {@code KEPT}.
     */
    @Test
    void keptNeedsWaitForEveryConnectedReplicaAndEveryReplicaSynced() throws Exception {
        try (RedisServer primary = RedisServer.start(SYNCED); RedisServer synced = RedisServer.start(SYNCED);
                RedisServer lazy = RedisServer.start()) {
            synced.replicate(primary);
            lazy.replicate(primary);
            try (RedisBackend waitOne = TestRedis.builder(primary, 0).waitForReplicas(1).build()) {
                StoreCapabilities capabilities = waitOne.verify();
                assertThat(capabilities.durability()).as(capabilities.durabilityDetail())
                        .isEqualTo(Durability.LOST_ON_FAILOVER);
                assertThat(capabilities.durabilityDetail()).contains("2 replicas connected", "WAIT covers 1 of them",
                        "replica 127.0.0.1:" + lazy.port() + " appendonly no");
            }
            BackendException refused = catchThrowableOfType(BackendException.class, () -> TestRedis.builder(primary, 0)
                    .waitForReplicas(2).minimumDurability(Durability.KEPT).build());
            assertThat(refused.kind()).isEqualTo(Kind.MISCONFIGURED);
            assertThat(refused.getMessage()).contains("lost on failover", "replica 127.0.0.1:" + lazy.port()
                    + " appendonly no", "on every replica too").doesNotContain("waitForReplicas(2)");

            lazy.command("CONFIG", "SET", "appendonly", "yes");
            lazy.command("CONFIG", "SET", "appendfsync", "always");
            try (RedisBackend waitBoth = TestRedis.builder(primary, 0).waitForReplicas(2)
                    .minimumDurability(Durability.KEPT).build()) {
                StoreCapabilities capabilities = waitBoth.verify();
                assertThat(capabilities.durability()).isEqualTo(Durability.KEPT);
                assertThat(capabilities.durabilityDetail()).contains("replica 127.0.0.1:" + synced.port()
                        + " appendonly yes, appendfsync always", "replica 127.0.0.1:" + lazy.port()
                        + " appendonly yes, appendfsync always", "WAIT for 2 replicas after each write");
            }
        }
    }

    /** A replica hoplock cannot log in to (its own password) cannot be shown to keep writes: nothing is promised. */
    @Test
    void aReplicaWhosePersistenceCannotBeReadPromisesNothing() throws Exception {
        try (RedisServer primary = RedisServer.start(SYNCED);
                RedisServer locked = RedisServer.startWithPassword("replica-only-" + java.util.UUID.randomUUID(),
                        SYNCED)) {
            locked.replicate(primary);
            try (RedisBackend backend = TestRedis.builder(primary, 0).waitForReplicas(1).build()) {
                StoreCapabilities capabilities = backend.verify();
                assertThat(capabilities.durability()).isEqualTo(Durability.LOST_ON_FAILOVER);
                assertThat(capabilities.durabilityDetail()).contains("replica 127.0.0.1:" + locked.port()
                        + " persistence unknown");
            }
        }
    }

    @Test
    void aWriteThatNoReplicaAcknowledgedIsAnUnknownOutcomeAndItsReadIsNotTrusted() throws Exception {
        try (RedisServer primary = RedisServer.start(); RedisServer replica = RedisServer.start()) {
            replica.replicate(primary);
            try (RedisBackend waiting = TestRedis.builder(primary, 0).waitForReplicas(1).build()) {
                replica.pause();
                try {
                    BackendException write = catchThrowableOfType(BackendException.class,
                            () -> waiting.write("k", Handle.NONE, bytes("a"), Duration.ofSeconds(2)));
                    assertThat(write.kind()).isEqualTo(Kind.TRANSIENT);
                    assertThat(write.getMessage()).contains("only 0 of 1 replicas acknowledged it",
                            "a failover could lose it; the outcome is unknown");
                    assertThat(primary.command("HGET", "hoplock:k", "version")).as("on the primary").isNotNull();

                    BackendException read = catchThrowableOfType(BackendException.class,
                            () -> waiting.read("k", Duration.ofSeconds(2)));
                    assertThat(read.kind()).isEqualTo(Kind.TRANSIENT);
                    assertThat(read.getMessage()).contains("WAIT", "the read of 'k'");
                } finally {
                    replica.resume();
                }
                assertThat(waiting.read("k", Duration.ofSeconds(5))).as("read once the replica is back").isPresent();
            }
        }
    }

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String[] concat(String[] first, String... more) {
        String[] all = new String[first.length + more.length];
        System.arraycopy(first, 0, all, 0, first.length);
        System.arraycopy(more, 0, all, first.length, more.length);
        return all;
    }
}
