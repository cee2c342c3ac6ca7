package dev.hoplock.redis;

import io.lettuce.core.RedisURI;
import org.jspecify.annotations.Nullable;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Where the backend connects: one server, a Sentinel-monitored primary, or a Redis Cluster, as Lettuce
 * {@link RedisURI}s (which carry the credentials), and how to name it without them.
 *
 * @param mode how the servers are reached
 * @param uris the server (standalone), the Sentinels' URI (one URI with the Sentinels and the master name), or the
 *             cluster's seed nodes
 */
record RedisTarget(Mode mode, List<RedisURI> uris) {

    /** How the servers are reached. */
    enum Mode {
        STANDALONE, SENTINEL, CLUSTER
    }

    RedisTarget {
        uris = List.copyOf(uris);
        if (uris.isEmpty()) {
            throw new IllegalArgumentException("no Redis URI");
        }
    }

    /** The first (for standalone and Sentinel: the only) URI. */
    RedisURI uri() {
        return uris.get(0);
    }

    /**
     * {@code redis://host:port/db}, {@code rediss://...} with TLS, {@code redis-socket://path},
     * {@code redis-sentinel://h1:p1,h2:p2/db#master} or {@code redis-cluster://h1:p1,h2:p2}: never a user name or a
     * password.
     */
    String describe() {
        RedisURI uri = uri();
        return switch (mode) {
            case CLUSTER -> (uri.isSsl() ? "rediss-cluster://" : "redis-cluster://")
                    + uris.stream().map(RedisTarget::hostPort).collect(Collectors.joining(","));
            case SENTINEL -> (uri.isSsl() ? "rediss-sentinel://" : "redis-sentinel://")
                    + uri.getSentinels().stream().map(RedisTarget::hostPort).collect(Collectors.joining(","))
                    + "/" + uri.getDatabase() + "#" + uri.getSentinelMasterId();
            case STANDALONE -> uri.getSocket() != null ? "redis-socket://" + uri.getSocket() + "/" + uri.getDatabase()
                    : (uri.isSsl() ? "rediss://" : "redis://") + hostPort(uri) + "/" + uri.getDatabase();
        };
    }

    private static String hostPort(RedisURI uri) {
        return hostPort(uri.getHost(), uri.getPort());
    }

    /** {@code host:port}, an IPv6 host in brackets. */
    static String hostPort(@Nullable String host, int port) {
        return (host != null && host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }
}
