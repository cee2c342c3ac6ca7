package dev.hoplock.spring.autoconfigure.redis;

import io.lettuce.core.RedisURI;
import io.lettuce.core.resource.ClientResources;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.data.redis.connection.NamedNode;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisNode;
import org.springframework.data.redis.connection.RedisPassword;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.RedisSocketConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.util.ClassUtils;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Where the application's Redis is, read from its unique Lettuce connection factory (Spring Data Redis's
 * {@link LettuceConnectionFactory}, what Spring Boot configures from {@code spring.data.redis.*}): the server, the
 * Sentinels or the cluster nodes, the database, the credentials and TLS, and the factory's Lettuce
 * {@link ClientResources} (event loops, timers), which the store then shares instead of starting its own.
 *
 * <p>The store never shares the factory's connection or client: every write may be followed by {@code WAIT}, which
 * blocks the connection it runs on, and the store sets client options of its own (no replay after a reconnect).
 * Spring Data Redis is optional: this class touches it only after checking that it is on the classpath. A factory of
 * another client (Jedis) is not read. Read are a factory's standalone server, Unix socket, Sentinels or cluster; a
 * static primary/replica factory ({@code RedisStaticMasterReplicaConfiguration}) does not tell its nodes through
 * Spring Data Redis's public API, so such an application sets {@code hoplock.redis.url}.
 *
 * @param uri       the standalone server or the Sentinels (null for a cluster)
 * @param cluster   the cluster's nodes as {@code redis://host:port} (empty unless a cluster)
 * @param username  the ACL user for a cluster, or null
 * @param password  the password for a cluster, or null
 * @param resources the factory's client resources, or null when it has none of its own yet
 */
record ApplicationRedisConnection(@Nullable RedisURI uri, List<String> cluster, @Nullable String username,
        char @Nullable [] password, @Nullable ClientResources resources) {

    static final String FACTORY = "org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory";

    /** The application's connection settings, or null when it has no (unique) Lettuce connection factory. */
    static @Nullable ApplicationRedisConnection find(ListableBeanFactory beans) {
        if (!ClassUtils.isPresent(FACTORY, ApplicationRedisConnection.class.getClassLoader())) {
            return null;
        }
        return Lettuce.find(beans);
    }

    /** What the log says about the connection, without credentials. */
    String describe() {
        return uri != null ? uri.toString() : "cluster " + cluster;
    }

    /** Loaded only when Spring Data Redis is present. */
    private static final class Lettuce {

        static @Nullable ApplicationRedisConnection find(ListableBeanFactory beans) {
            LettuceConnectionFactory factory = beans.getBeanProvider(LettuceConnectionFactory.class).getIfUnique();
            if (factory == null) {
                return null;
            }
            ClientResources resources = factory.getClientConfiguration().getClientResources()
                    .orElse(factory.getClientResources());
            boolean ssl = factory.isUseSsl();
            if (factory.isClusterAware()) {
                RedisClusterConfiguration cluster = Objects.requireNonNull(factory.getClusterConfiguration(),
                        "a cluster-aware factory has a cluster configuration");
                List<String> nodes = new ArrayList<>();
                for (RedisNode node : cluster.getClusterNodes()) {
                    nodes.add((ssl ? "rediss://" : "redis://") + node.getHost() + ":" + node.getPort());
                }
                return new ApplicationRedisConnection(null, List.copyOf(nodes), cluster.getUsername(),
                        chars(cluster.getPassword()), resources);
            }
            RedisURI.Builder uri;
            String username;
            RedisPassword password;
            int database;
            if (factory.isRedisSentinelAware()) {
                RedisSentinelConfiguration sentinel = Objects.requireNonNull(factory.getSentinelConfiguration(),
                        "a sentinel-aware factory has a sentinel configuration");
                NamedNode master = Objects.requireNonNull(sentinel.getMaster(), "a sentinel configuration names its master");
                uri = RedisURI.builder().withSentinelMasterId(String.valueOf(master.getName()));
                for (RedisNode node : sentinel.getSentinels()) {
                    uri.withSentinel(String.valueOf(node.getHost()), node.getPort() == null ? 26379 : node.getPort());
                }
                username = sentinel.getUsername();
                password = sentinel.getPassword();
                database = sentinel.getDatabase();
            } else if (factory.getSocketConfiguration() != null) {
                RedisSocketConfiguration socket = factory.getSocketConfiguration();
                uri = RedisURI.builder().socket(socket.getSocket());
                username = socket.getUsername();
                password = socket.getPassword();
                database = socket.getDatabase();
            } else {
                RedisStandaloneConfiguration standalone = factory.getStandaloneConfiguration();
                uri = RedisURI.builder().withHost(standalone.getHostName()).withPort(standalone.getPort());
                username = standalone.getUsername();
                password = standalone.getPassword();
                database = standalone.getDatabase();
            }
            uri.withDatabase(database).withSsl(ssl);
            char[] secret = chars(password);
            if (secret != null) {
                if (username != null && !username.isBlank()) {
                    uri.withAuthentication(username, secret);
                } else {
                    uri.withPassword(secret);
                }
            }
            return new ApplicationRedisConnection(uri.build(), List.of(), null, null, resources);
        }

        private static char @Nullable [] chars(@Nullable RedisPassword password) {
            return password == null || !password.isPresent() ? null : password.get();
        }
    }
}
