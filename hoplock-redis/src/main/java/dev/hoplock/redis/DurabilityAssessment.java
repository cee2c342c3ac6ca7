package dev.hoplock.redis;

import dev.hoplock.core.backend.Durability;

import java.util.ArrayList;
import java.util.List;

/**
 * What the primaries' and their replicas' settings and the backend's {@code WAIT} promise about an acknowledged lease
 * write, with what it was read from and the fix that would raise it. The rules, per primary; the store gets the weakest:
 * <table>
 *   <caption>When an acknowledged write is promised what</caption>
 *   <tr><th>what was seen</th><th>promise</th><th>why</th></tr>
 *   <tr><td>the primary does not sync every write before acknowledging it ({@code appendonly no}, or
 *       {@code appendfsync} other than {@code always}), evicts keys ({@code maxmemory-policy allkeys-*}), or its
 *       settings could not be read (no {@code INFO} or {@code CONFIG GET} for the user)</td>
 *       <td>{@link Durability#LOST_ON_RESTART}</td><td>a restart of the server or its machine loses the last writes,
 *       or an eviction removes a lease; nothing is promised that was not seen</td></tr>
 *   <tr><td>the number of connected replicas is unknown ({@code INFO} without {@code connected_slaves})</td>
 *       <td>at most {@link Durability#LOST_ON_FAILOVER}</td><td>a replica we cannot see can be promoted</td></tr>
 *   <tr><td>n replicas connected and {@code WAIT} for fewer than n (or none)</td>
 *       <td>at most {@link Durability#LOST_ON_FAILOVER}</td><td>replication is asynchronous: a failover can promote a
 *       replica that did not acknowledge the write (Sentinel prefers the replica with the most data but does not wait
 *       for it; a replica cut off with the primary, a {@code replica-priority}, a manual failover or a cluster's
 *       election can pick another); only {@code WAIT} for every connected replica leaves no replica without it</td></tr>
 *   <tr><td>a connected replica that does not itself sync every write ({@code appendonly yes} and
 *       {@code appendfsync always}) or evicts keys, or whose settings could not be read (unreachable from here, or
 *       the user may not log in or run {@code INFO}/{@code CONFIG GET} there)</td>
 *       <td>at most {@link Durability#LOST_ON_FAILOVER}</td><td>once promoted, it is the primary: its own
 *       persistence decides what its next restart keeps</td></tr>
 *   <tr><td>the primary syncs every write and either no replica is connected, or {@code WAIT} for every connected
 *       replica and every replica syncs every write</td><td>{@link Durability#KEPT}</td><td>a single server: no
 *       failover can happen (a replica that connects later is seen at the next check); with replicas: every replica
 *       a failover could promote has the write on its disk</td></tr>
 * </table>
 * {@code min-replicas-to-write} is reported but not required: with {@code WAIT} for every replica, a write that a cut
 * off primary accepts is never acknowledged (its {@code WAIT} fails, an unknown outcome), and a read on it fails the
 * same way; {@code min-replicas-to-write} makes such a primary refuse the write at once ({@code NOREPLICAS}, "nothing
 * was written"), which is clearer but not safer. A {@code WAIT} that returns fewer acknowledgements than asked is an
 * unknown outcome, never a written lease ({@link RedisBackend}).
 *
 * <p>The answer is for the moment of the check: a setting changed later ({@code CONFIG SET}), a replica that connects
 * later, or a slot that moves to another primary of a cluster is seen at the next check. {@code WAIT} is not consensus:
 * a write acknowledged by every replica is still lost if they all fail with the primary, or if a replica that was
 * disconnected at the moment of the write (so neither counted nor waited for) is promoted.
 *
 * @param level  the weakest promise of all primaries
 * @param detail what it was read from, per primary ("127.0.0.1:6379: Redis 7.0.15, appendonly yes, appendfsync always,
 *               1 replica connected, replica 127.0.0.1:6380 appendonly yes, appendfsync always; WAIT for 1 replica
 *               after each write")
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
                level = min(level, replication(facts, waitForReplicas, seen, fixes));
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

    /**
     * What the replicas allow at most: {@link Durability#KEPT} when none is connected, or when {@code WAIT} covers every
     * connected replica and each of them syncs every write; {@link Durability#LOST_ON_FAILOVER} otherwise.
     */
    private static Durability replication(ServerFacts primary, int waitForReplicas, List<String> seen,
            List<String> fixes) {
        int replicas = primary.connectedReplicas();
        if (replicas == 0) {
            return Durability.KEPT;
        }
        if (replicas < 0) {
            add(fixes, "let hoplock see the replicas (INFO replication with connected_slaves on the primary), or lower"
                    + " the minimum durability: a replica that cannot be seen can be promoted without the last writes");
            return Durability.LOST_ON_FAILOVER;
        }
        Durability level = Durability.KEPT;
        if (waitForReplicas < replicas) {
            level = Durability.LOST_ON_FAILOVER;
            if (waitForReplicas > 0) {
                seen.add("WAIT covers " + waitForReplicas + " of them");
            }
            add(fixes, "wait for every connected replica after each write (RedisBackendBuilder.waitForReplicas("
                    + replicas + ")), so that whichever replica a failover promotes has every acknowledged lease");
        }
        if (primary.replicas().size() < replicas) {
            level = Durability.LOST_ON_FAILOVER;
            seen.add((replicas - primary.replicas().size()) + " of them without an address in INFO replication");
            add(fixes, "let hoplock read every replica's persistence: INFO replication on the primary must list each"
                    + " replica's ip and port");
        }
        for (ServerFacts replica : primary.replicas()) {
            List<String> about = new ArrayList<>();
            if (replica.infoRefused() != null) {
                about.add("persistence unknown (" + replica.infoRefused() + ")");
                level = Durability.LOST_ON_FAILOVER;
                add(fixes, "let hoplock read each replica's persistence: the replicas must be reachable at the address"
                        + " the primary lists (replica-announce-ip) and accept hoplock's user and password with"
                        + " +info and +config|get");
            } else {
                Boolean aof = replica.appendOnly();
                String fsync = replica.appendfsync();
                about.add("appendonly " + (aof == null ? "unknown" : aof ? "yes" : "no"));
                about.add("appendfsync " + (fsync != null ? fsync : "unknown (" + replica.configRefused() + ")"));
                String policy = replica.maxmemoryPolicy();
                if (policy != null && policy.startsWith("allkeys-")) {
                    about.add("maxmemory-policy " + policy);
                }
                if (!Boolean.TRUE.equals(aof) || !"always".equals(fsync)
                        || policy != null && policy.startsWith("allkeys-")) {
                    level = Durability.LOST_ON_FAILOVER;
                    add(fixes, "sync every write to disk on every replica too (appendonly yes, appendfsync always and"
                            + " no allkeys-* maxmemory-policy in each replica's redis.conf): a failover makes a replica"
                            + " the primary, and one that does not sync loses acknowledged leases at its next restart");
                }
            }
            seen.add("replica " + replica.node() + " " + String.join(", ", about));
        }
        return level;
    }

    private static Durability min(Durability a, Durability b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    private static void add(List<String> fixes, String fix) {
        if (!fixes.contains(fix)) {
            fixes.add(fix);
        }
    }
}
