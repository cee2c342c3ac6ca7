package dev.hoplock.redis;

import dev.hoplock.core.backend.Durability;

import java.util.ArrayList;
import java.util.List;

/**
 * What the primaries' settings and the backend's {@code WAIT} promise about an acknowledged lease write, with what it
 * was read from and the fix that would raise it. The rules, per primary, weakest first:
 * <ol>
 *   <li>{@link Durability#LOST_ON_RESTART} unless every write is synced to disk before it is acknowledged
 *       ({@code appendonly yes} and {@code appendfsync always}): with RDB snapshots only, or the append-only file synced
 *       once a second, a restart of the server (or of its machine) loses the last writes. Also when
 *       {@code maxmemory-policy} is an {@code allkeys-*} policy, which may evict a lease at any time, and when the
 *       settings could not be read (no {@code INFO} or no {@code CONFIG GET} for the user): nothing is promised that
 *       was not seen.</li>
 *   <li>{@link Durability#LOST_ON_FAILOVER} when a replica is connected and the backend does not wait for replicas:
 *       replication is asynchronous, so a failover can promote a replica that never received the last writes
 *       (Jepsen found Sentinel losing acknowledged writes this way).</li>
 *   <li>{@link Durability#KEPT} when the backend waits for at least one replica after each write ({@code WAIT}), or
 *       when no replica is connected (a single server: no failover can happen; a replica that connects later takes a
 *       full copy of the data set, and from then on a check would report {@code LOST_ON_FAILOVER} until {@code WAIT}
 *       is set).</li>
 * </ol>
 * The answer is for the moment of the check: a setting changed later ({@code CONFIG SET}) is seen at the next check.
 * {@code WAIT} is not consensus: a write acknowledged by N replicas can still be lost if those N fail with the primary,
 * or if a failover promotes another replica; Sentinel prefers the replica with the most data, and
 * {@code min-replicas-to-write} stops an isolated primary from accepting writes.
 *
 * @param level  the weakest promise of all primaries
 * @param detail what it was read from, per primary ("127.0.0.1:6379: Redis 7.0.15, appendonly yes, appendfsync always,
 *               1 replica connected; WAIT for 1 replica after each write")
 * @param fixes  what would raise it, one sentence each; empty at {@link Durability#KEPT}
 */
record DurabilityAssessment(Durability level, String detail, List<String> fixes) {

    static DurabilityAssessment of(List<ServerFacts> primaries, int waitForReplicas) {
        Durability weakest = Durability.KEPT;
        List<String> details = new ArrayList<>();
        List<String> fixes = new ArrayList<>();
        for (ServerFacts facts : primaries) {
            Durability level = Durability.KEPT;
            List<String> seen = new ArrayList<>();
            if (facts.infoRefused() != null) {
                level = Durability.LOST_ON_RESTART;
                seen.add("INFO refused (" + facts.infoRefused() + ")");
                add(fixes, "let hoplock's Redis user run INFO (ACL +info), so that it can read the role, replicas and"
                        + " persistence");
            } else {
                seen.add("Redis " + facts.version());
                Boolean aof = facts.appendOnly();
                seen.add("appendonly " + (aof == null ? "unknown" : aof ? "yes" : "no"));
                String fsync = facts.appendfsync();
                seen.add("appendfsync " + (fsync != null ? fsync : "unknown (" + facts.configRefused() + ")"));
                if (!Boolean.TRUE.equals(aof)) {
                    level = Durability.LOST_ON_RESTART;
                    add(fixes, "sync every write to disk before it is acknowledged: appendonly yes and appendfsync"
                            + " always (CONFIG SET appendonly yes, CONFIG SET appendfsync always, and the same in"
                            + " redis.conf)");
                } else if (fsync == null) {
                    level = Durability.LOST_ON_RESTART;
                    add(fixes, "let hoplock's Redis user read the settings (ACL +config|get), so that it can see"
                            + " appendfsync, or lower the minimum durability");
                } else if (!fsync.equals("always")) {
                    level = Durability.LOST_ON_RESTART;
                    add(fixes, "sync every write before it is acknowledged: appendfsync always (CONFIG SET appendfsync"
                            + " always, and in redis.conf)");
                }
                String policy = facts.maxmemoryPolicy();
                if (policy != null && policy.startsWith("allkeys-")) {
                    level = Durability.LOST_ON_RESTART;
                    seen.add("maxmemory-policy " + policy + " (may evict a lease)");
                    add(fixes, "use maxmemory-policy noeviction or a volatile-* policy (leases have no expiry, so"
                            + " volatile policies never evict them)");
                }
                int replicas = facts.connectedReplicas();
                seen.add(replicas < 0 ? "replicas unknown" : replicas + (replicas == 1 ? " replica" : " replicas")
                        + " connected");
                if (facts.minReplicasToWrite() != null && facts.minReplicasToWrite() > 0) {
                    seen.add("min-replicas-to-write " + facts.minReplicasToWrite());
                }
                if (level == Durability.KEPT && waitForReplicas == 0 && replicas != 0) {
                    level = Durability.LOST_ON_FAILOVER;
                    add(fixes, "wait for replicas after each write (RedisBackendBuilder.waitForReplicas(1)) and set"
                            + " min-replicas-to-write 1 on the primary, so that a failover cannot lose an acknowledged"
                            + " lease");
                }
            }
            details.add(facts.node() + ": " + String.join(", ", seen));
            if (level.compareTo(weakest) < 0) {
                weakest = level;
            }
        }
        String waits = waitForReplicas == 0 ? "no WAIT" : "WAIT for " + waitForReplicas
                + (waitForReplicas == 1 ? " replica" : " replicas") + " after each write";
        return new DurabilityAssessment(weakest, String.join("; ", details) + "; " + waits,
                weakest == Durability.KEPT ? List.of() : List.copyOf(fixes));
    }

    private static void add(List<String> fixes, String fix) {
        if (!fixes.contains(fix)) {
            fixes.add(fix);
        }
    }
}
