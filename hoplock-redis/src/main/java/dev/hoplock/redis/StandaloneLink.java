package dev.hoplock.redis;

import dev.hoplock.core.backend.CallBudget;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

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
    private volatile @Nullable StatefulRedisConnection<byte[], byte[]> connection;
    private @Nullable CompletableFuture<StatefulRedisConnection<byte[], byte[]>> pending;
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

    @Override
    public OtherNode open(String host, int port, CallBudget budget) throws Exception {
        RedisURI other = RedisURI.Builder.redis(host, port).withSsl(uri).withAuthentication(uri)
                .withTimeout(uri.getTimeout()).build();
        CompletableFuture<StatefulRedisConnection<byte[], byte[]>> attempt =
                client.connectAsync(ByteArrayCodec.INSTANCE, other).toCompletableFuture();
        StatefulRedisConnection<byte[], byte[]> opened;
        try {
            opened = attempt.get(budget.millisLeft(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            attempt.thenAccept(StatefulRedisConnection::closeAsync); // if it opens later
            throw e;
        }
        return new OtherNode(new Node(RedisTarget.hostPort(host, port), opened.async()), opened::closeAsync);
    }

    /**
     * The open connection, or the attempt to open one. An attempt outlives the call that started it: a call whose
     * budget ends (or whose thread is interrupted) stops waiting, and the next call waits for the same attempt, so that
     * a slow first connection (a cold JVM on a loaded machine) is not started again and abandoned at every call.
     */
    private StatefulRedisConnection<byte[], byte[]> connection(CallBudget budget) throws Exception {
        StatefulRedisConnection<byte[], byte[]> open = connection;
        if (open != null && open.isOpen()) {
            return open;
        }
        CompletableFuture<StatefulRedisConnection<byte[], byte[]>> attempt;
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("the Redis backend is closed");
            }
            attempt = pending;
            boolean usable = attempt != null && (!attempt.isDone()
                    || !attempt.isCompletedExceptionally() && attempt.join().isOpen());
            if (attempt == null || !usable) {
                attempt = client.connectAsync(ByteArrayCodec.INSTANCE, uri).toCompletableFuture();
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
        StatefulRedisConnection<byte[], byte[]> open = connection;
        if (open != null) {
            open.close();
        }
        if (ownsClient) {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }
}
