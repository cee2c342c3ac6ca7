package dev.hoplock.redis;

import dev.hoplock.core.backend.CallBudget;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;

import java.util.List;

/**
 * The backend's own connection(s) to the store, opened on first use and again after a connection was closed, each
 * within the budget of the call that needs it. Commands for one key always go over one connection to the node that
 * holds the key, so that a {@code WAIT} after a write counts the replicas of that write.
 */
interface RedisLink extends AutoCloseable {

    /** The commands of the connection to the primary that holds {@code key}, connecting within {@code budget}. */
    RedisClusterAsyncCommands<byte[], byte[]> forKey(byte[] key, CallBudget budget) throws Exception;

    /** Every primary (one, or each master of a cluster), for the start-up check. */
    List<Node> primaries(CallBudget budget) throws Exception;

    /**
     * A connection to another node of the deployment (a replica that a primary lists in {@code INFO replication}),
     * with the link's credentials and TLS, for the start-up check to read the node's own persistence. Closing the
     * answer closes what was opened for it.
     */
    OtherNode open(String host, int port, CallBudget budget) throws Exception;

    /** Asks the client to refresh what it knows of the topology (a cluster's slots); a no-op for one server. */
    default void refreshTopology() {
    }

    /** Closes the connections, and the client if this link created it. */
    @Override
    void close();

    /** A primary: a name for messages ({@code host:port}) and its commands. */
    record Node(String name, RedisClusterAsyncCommands<byte[], byte[]> commands) {
    }

    /** A node opened by {@link #open}: its commands, and what closes the connection (nothing if the link keeps it). */
    record OtherNode(Node node, Runnable closer) implements AutoCloseable {
        @Override
        public void close() {
            closer.run();
        }
    }
}
