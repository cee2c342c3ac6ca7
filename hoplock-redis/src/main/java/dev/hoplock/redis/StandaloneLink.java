package dev.hoplock.redis;

import dev.hoplock.core.backend.CallBudget;
import io.lettuce.core.ConnectionFuture;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One connection to one server, or to the primary that Sentinel names (Lettuce asks the Sentinels again at every
 * reconnect, so after a failover the connection follows the new primary). Opened on first use, within the budget of
 * the call that needs it; opened again when it was closed.
 */
final class StandaloneLink implements RedisLink {

    private final RedisClient client;
    private final boolean ownsClient;
    private final RedisURI uri;
    private final String name;
    private final ReentrantLock connecting = new ReentrantLock();
    private volatile @Nullable StatefulRedisConnection<byte[], byte[]> connection;
    private volatile boolean closed;

    StandaloneLink(RedisClient client, boolean ownsClient, RedisURI uri, String name) {
        this.client = client;
        this.ownsClient = ownsClient;
        this.uri = uri;
        this.name = name;
    }

    @Override
    public RedisClusterAsyncCommands<byte[], byte[]> forKey(byte[] key, CallBudget budget) throws Exception {
        return connection(budget).async();
    }

    @Override
    public List<Node> primaries(CallBudget budget) throws Exception {
        return List.of(new Node(name, connection(budget).async()));
    }

    private StatefulRedisConnection<byte[], byte[]> connection(CallBudget budget) throws Exception {
        StatefulRedisConnection<byte[], byte[]> open = connection;
        if (open != null && open.isOpen()) {
            return open;
        }
        if (!connecting.tryLock(budget.millisLeft(), TimeUnit.MILLISECONDS)) {
            throw new TimeoutException("another call is still connecting");
        }
        try {
            open = connection;
            if (open != null && open.isOpen()) {
                return open;
            }
            if (closed) {
                throw new IllegalStateException("the Redis backend is closed");
            }
            if (open != null) {
                open.closeAsync();
            }
            ConnectionFuture<StatefulRedisConnection<byte[], byte[]>> opening =
                    client.connectAsync(ByteArrayCodec.INSTANCE, uri);
            try {
                open = opening.get(budget.millisLeft(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                opening.thenAccept(StatefulRedisConnection::closeAsync);
                throw e;
            }
            connection = open;
            return open;
        } finally {
            connecting.unlock();
        }
    }

    @Override
    public void close() {
        closed = true;
        StatefulRedisConnection<byte[], byte[]> open = connection;
        if (open != null) {
            open.close();
        }
        if (ownsClient) {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }
}
