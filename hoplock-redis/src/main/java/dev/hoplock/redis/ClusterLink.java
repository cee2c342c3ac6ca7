package dev.hoplock.redis;

import dev.hoplock.core.backend.CallBudget;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.protocol.ConnectionIntent;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;


/**
 * A Redis Cluster: every lease is one key, so one slot, and every script names that one key, which is all a cluster
 * needs. The commands of a key go over Lettuce's connection to the master that serves the key's slot (not over the
 * routing connection), so that the {@code WAIT} after a write runs on the connection that made the write. A key
 * whose slot moved is answered {@code MOVED}: nothing was done, the call fails as a passing fault and the topology is
 * refreshed for the next one.
 */
final class ClusterLink implements RedisLink {

    private final RedisClusterClient client;
    private final boolean ownsClient;
    private volatile @Nullable StatefulRedisClusterConnection<byte[], byte[]> connection;
    private @Nullable CompletableFuture<StatefulRedisClusterConnection<byte[], byte[]>> pending;
    private volatile boolean closed;

    ClusterLink(RedisClusterClient client, boolean ownsClient) {
        this.client = client;
        this.ownsClient = ownsClient;
    }

    @Override
    public RedisClusterAsyncCommands<byte[], byte[]> forKey(byte[] key, CallBudget budget) throws Exception {
        StatefulRedisClusterConnection<byte[], byte[]> cluster = connection(budget);
        RedisClusterNode master = cluster.getPartitions().getMasterBySlot(SlotHash.getSlot(key));
        if (master == null) {
            refreshTopology();
            throw new IllegalStateException("no master serves the key's slot " + SlotHash.getSlot(key)
                    + " (CLUSTERDOWN?); nothing was sent");
        }
        return node(cluster, master, budget).async();
    }

    @Override
    public List<Node> primaries(CallBudget budget) throws Exception {
        StatefulRedisClusterConnection<byte[], byte[]> cluster = connection(budget);
        List<Node> nodes = new ArrayList<>();
        for (RedisClusterNode node : cluster.getPartitions()) {
            if (node.is(RedisClusterNode.NodeFlag.UPSTREAM) && !node.getSlots().isEmpty()) {
                nodes.add(new Node(node.getUri().getHost() + ":" + node.getUri().getPort(),
                        node(cluster, node, budget).async()));
            }
        }
        return nodes;
    }

    /** Over the cluster connection's own node connection (read intent, as for a replica), which it keeps and closes. */
    @Override
    public OtherNode open(String host, int port, CallBudget budget) throws Exception {
        StatefulRedisClusterConnection<byte[], byte[]> cluster = connection(budget);
        StatefulRedisConnection<byte[], byte[]> node = cluster.getConnectionAsync(host, port, ConnectionIntent.READ)
                .get(budget.millisLeft(), TimeUnit.MILLISECONDS);
        return new OtherNode(new Node(RedisTarget.hostPort(host, port), node.async()), () -> { });
    }

    @Override
    public void refreshTopology() {
        client.refreshPartitionsAsync();
    }

    private static StatefulRedisConnection<byte[], byte[]> node(StatefulRedisClusterConnection<byte[], byte[]> cluster,
            RedisClusterNode node, CallBudget budget) throws Exception {
        CompletableFuture<StatefulRedisConnection<byte[], byte[]>> opening =
                cluster.getConnectionAsync(node.getNodeId());
        return opening.get(budget.millisLeft(), TimeUnit.MILLISECONDS);
    }

    /** As {@link StandaloneLink}: an attempt to connect outlives the call that started it. */
    private StatefulRedisClusterConnection<byte[], byte[]> connection(CallBudget budget) throws Exception {
        StatefulRedisClusterConnection<byte[], byte[]> open = connection;
        if (open != null && open.isOpen()) {
            return open;
        }
        CompletableFuture<StatefulRedisClusterConnection<byte[], byte[]>> attempt;
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("the Redis backend is closed");
            }
            attempt = pending;
            boolean usable = attempt != null && (!attempt.isDone()
                    || !attempt.isCompletedExceptionally() && attempt.join().isOpen());
            if (attempt == null || !usable) {
                // Lettuce's connectAsync needs the topology loaded first ("Partitions not initialized" otherwise).
                attempt = client.refreshPartitionsAsync().toCompletableFuture()
                        .thenCompose(loaded -> client.connectAsync(ByteArrayCodec.INSTANCE));
                attempt.whenComplete((opened, failure) -> {
                    if (opened != null) {
                        if (closed) {
                            opened.closeAsync();
                        } else {
                            connection = opened;
                        }
                    }
                });
                pending = attempt;
            }
        }
        return attempt.get(budget.millisLeft(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        synchronized (this) {
            closed = true;
        }
        StatefulRedisClusterConnection<byte[], byte[]> open = connection;
        if (open != null) {
            open.close();
        }
        if (ownsClient) {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }
}
