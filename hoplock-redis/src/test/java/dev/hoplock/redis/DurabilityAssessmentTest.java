package dev.hoplock.redis;

import dev.hoplock.core.backend.Durability;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rules of {@link DurabilityAssessment}, one by one, on facts as {@code INFO} and {@code CONFIG GET} give them
 * (the real servers of {@link RedisDurabilityTest} show that the check reads them so). Each rule that can lower the
 * promise is shown lowering it, and {@code KEPT} is shown only where every replica a failover could promote has the
 * write on its disk.
 */
class DurabilityAssessmentTest {

    @Test
    void aSyncedSingleServerIsKept() {
        DurabilityAssessment a = DurabilityAssessment.of(List.of(primary(0)), 0);

        assertThat(a.level()).isEqualTo(Durability.KEPT);
        assertThat(a.fixes()).isEmpty();
    }

    @Test
    void withoutSyncEveryWriteARestartLosesWrites() {
        ServerFacts everysec = new ServerFacts("p:6379", info(0, true), "everysec", null, null, null);
        ServerFacts noAof = new ServerFacts("p:6379", info(0, false), "always", null, null, null);

        assertThat(DurabilityAssessment.of(List.of(everysec), 0).level()).isEqualTo(Durability.LOST_ON_RESTART);
        assertThat(DurabilityAssessment.of(List.of(noAof), 0).level()).isEqualTo(Durability.LOST_ON_RESTART);
    }

    @Test
    void waitForFewerReplicasThanAreConnectedIsLostOnFailover() {
        ServerFacts primary = primary(2, synced("r1:6379"), synced("r2:6379"));

        DurabilityAssessment one = DurabilityAssessment.of(List.of(primary), 1);
        assertThat(one.level()).as(one.detail()).isEqualTo(Durability.LOST_ON_FAILOVER);
        assertThat(one.detail()).contains("2 replicas connected", "WAIT covers 1 of them");
        assertThat(one.fixes()).anyMatch(fix -> fix.contains("waitForReplicas(2)"));

        assertThat(DurabilityAssessment.of(List.of(primary), 2).level()).isEqualTo(Durability.KEPT);
    }

    @Test
    void noWaitWithAReplicaIsLostOnFailover() {
        DurabilityAssessment a = DurabilityAssessment.of(List.of(primary(1, synced("r1:6379"))), 0);

        assertThat(a.level()).isEqualTo(Durability.LOST_ON_FAILOVER);
        assertThat(a.fixes()).anyMatch(fix -> fix.contains("waitForReplicas(1)"));
    }

    @Test
    void aReplicaThatDoesNotSyncEveryWriteIsLostOnFailoverEvenWithWait() {
        ServerFacts lazy = new ServerFacts("r1:6379", info(0, true), "everysec", null, null, null);
        ServerFacts noAof = new ServerFacts("r2:6379", info(0, false), "always", null, null, null);

        DurabilityAssessment a = DurabilityAssessment.of(List.of(primary(1, lazy)), 1);
        assertThat(a.level()).isEqualTo(Durability.LOST_ON_FAILOVER);
        assertThat(a.detail()).contains("replica r1:6379 appendonly yes, appendfsync everysec");
        assertThat(a.fixes()).anyMatch(fix -> fix.contains("on every replica too"));
        assertThat(DurabilityAssessment.of(List.of(primary(1, noAof)), 1).level())
                .isEqualTo(Durability.LOST_ON_FAILOVER);
    }

    @Test
    void aReplicaThatEvictsIsLostOnFailover() {
        Map<String, String> evicting = info(0, true);
        evicting.put("maxmemory_policy", "allkeys-lru");
        ServerFacts replica = new ServerFacts("r1:6379", evicting, "always", null, null, null);

        assertThat(DurabilityAssessment.of(List.of(primary(1, replica)), 1).level())
                .isEqualTo(Durability.LOST_ON_FAILOVER);
    }

    @Test
    void aReplicaWhosePersistenceCannotBeReadPromisesNothing() {
        DurabilityAssessment a = DurabilityAssessment.of(List.of(primary(1,
                ServerFacts.unreadable("r1:6379", "cannot connect to it from here"))), 1);

        assertThat(a.level()).isEqualTo(Durability.LOST_ON_FAILOVER);
        assertThat(a.detail()).contains("replica r1:6379 persistence unknown (cannot connect to it from here)");
        assertThat(a.fixes()).anyMatch(fix -> fix.contains("replica-announce-ip"));
    }

    @Test
    void aReplicaListedWithoutAnAddressPromisesNothing() {
        ServerFacts primary = primary(2, synced("r1:6379"));

        assertThat(DurabilityAssessment.of(List.of(primary), 2).level()).isEqualTo(Durability.LOST_ON_FAILOVER);
    }

    @Test
    void anUnknownReplicaCountIsLostOnFailoverWithWaitToo() {
        Map<String, String> info = info(0, true);
        info.remove("connected_slaves");
        ServerFacts primary = new ServerFacts("p:6379", info, "always", null, null, null);

        DurabilityAssessment a = DurabilityAssessment.of(List.of(primary), 1);
        assertThat(a.level()).as(a.detail()).isEqualTo(Durability.LOST_ON_FAILOVER);
        assertThat(a.detail()).contains("replicas unknown");
        assertThat(DurabilityAssessment.of(List.of(primary), 0).level()).isEqualTo(Durability.LOST_ON_FAILOVER);
    }

    @Test
    void minReplicasToWriteIsReportedButNotRequired() {
        ServerFacts primary = new ServerFacts("p:6379", info(1, true), "always", 1, null, null,
                List.of(synced("r1:6379")));

        DurabilityAssessment a = DurabilityAssessment.of(List.of(primary), 1);
        assertThat(a.level()).isEqualTo(Durability.KEPT);
        assertThat(a.detail()).contains("min-replicas-to-write 1");
    }

    @Test
    void aClusterGetsItsWeakestPrimary() {
        ServerFacts kept = primary(1, synced("r1:7001"));
        ServerFacts twoReplicas = new ServerFacts("p2:7002", info(2, true), "always", null, null, null,
                List.of(synced("r2:7003"), synced("r3:7004")));

        DurabilityAssessment a = DurabilityAssessment.of(List.of(kept, twoReplicas), 1);
        assertThat(a.level()).isEqualTo(Durability.LOST_ON_FAILOVER);
        assertThat(a.detail()).contains("p2:7002", "2 replicas connected", "WAIT covers 1 of them");
        assertThat(DurabilityAssessment.of(List.of(kept, twoReplicas), 2).level()).isEqualTo(Durability.KEPT);
    }

    @Test
    void replicaAddressesAreReadFromInfoReplication() {
        Map<String, String> info = ServerFacts.parseInfo("# Replication\r\nrole:master\r\nconnected_slaves:2\r\n"
                + "slave0:ip=10.0.0.2,port=6380,state=online,offset=42,lag=0\r\n"
                + "slave1:ip=::1,port=6381,state=online,offset=42,lag=1\r\n");
        ServerFacts primary = new ServerFacts("p:6379", info, "always", null, null, null);

        assertThat(primary.replicaAddresses()).containsExactly(new ServerFacts.ReplicaAddress("10.0.0.2", 6380),
                new ServerFacts.ReplicaAddress("::1", 6381));
        assertThat(primary.replicaAddresses().get(1)).hasToString("[::1]:6381");
    }

    /** A primary that syncs every write, with {@code connected} replicas connected and the given replicas read. */
    private static ServerFacts primary(int connected, ServerFacts... replicas) {
        return new ServerFacts("p:6379", info(connected, true), "always", null, null, null,
                new ArrayList<>(List.of(replicas)));
    }

    private static ServerFacts synced(String node) {
        return new ServerFacts(node, info(0, true), "always", null, null, null);
    }

    private static Map<String, String> info(int connectedReplicas, boolean aof) {
        Map<String, String> info = new HashMap<>();
        info.put("redis_version", "7.0.15");
        info.put("role", "master");
        info.put("connected_slaves", Integer.toString(connectedReplicas));
        info.put("aof_enabled", aof ? "1" : "0");
        info.put("maxmemory_policy", "noeviction");
        return info;
    }
}
