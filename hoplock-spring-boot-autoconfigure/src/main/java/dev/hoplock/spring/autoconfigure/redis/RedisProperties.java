package dev.hoplock.spring.autoconfigure.redis;

import dev.hoplock.core.backend.Durability;
import dev.hoplock.redis.RedisBackend;
import dev.hoplock.redis.RedisBackendBuilder;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.convert.DurationUnit;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/**
 * The Redis store's settings, {@code hoplock.redis.*} (the store needs {@code dev.hoplock:hoplock-redis}), owned by
 * {@link RedisBackendConfiguration}: one Redis hash per lease key, swapped by Lua scripts on a random version, with the
 * server's durability verified.
 *
 * <p>Where the server is: {@link #getUrl() url}, or {@link #getHost() host} with port and database, or
 * {@link #getClusterNodes() cluster-nodes}; with none of them, the application's Lettuce connection factory (Spring
 * Data Redis, configured by {@code spring.data.redis.*}) tells it.
 *
 * <p>Guarantees: holds what was bound; the store's builder checks it. The password (and any password in the URL or in
 * a cluster node) is never in {@link #toString()}, logs, events, health or endpoint output.
 */
@ConfigurationProperties("hoplock.redis")
public class RedisProperties {

    /**
     * The server as a Redis URI: redis://host:6379/0, rediss://host:6380/0 (TLS),
     * redis-sentinel://host:26379,host:26380/0#mymaster (Sentinel) or redis-socket:///path. Instead of host, port and
     * database. Default: the application's Lettuce connection factory (spring.data.redis.*).
     */
    private @Nullable String url;

    /** The server's host name, with port and database; instead of url. */
    private @Nullable String host;

    /** The server's port, with host. */
    private int port = 6379;

    /** The database number, with host. */
    private int database = 0;

    /** Connect over TLS, with host. */
    private boolean ssl = false;

    /** The nodes of a Redis Cluster, for example redis://10.0.0.1:7000; instead of url or host. */
    private List<String> clusterNodes = new ArrayList<>();

    /** The ACL user name (Redis 6 or later), with password. Default: the URL's, or 'default'. */
    private @Nullable String username;

    /** The password; wins over one in the URL. Never logged or shown. */
    private @Nullable String password;

    /** Put before every lease key to form its Redis key: letters, digits and . _ - : / { }. */
    private String prefix = RedisBackend.DEFAULT_PREFIX;

    /** The longest one store call may take, connecting and WAIT included. Without a unit: seconds. */
    @DurationUnit(ChronoUnit.SECONDS)
    private Duration requestTimeout = Duration.ofSeconds(RedisBackend.DEFAULT_REQUEST_TIMEOUT_SECONDS);

    /** TCP connect timeout. Without a unit: seconds. */
    @DurationUnit(ChronoUnit.SECONDS)
    private Duration connectTimeout = Duration.ofSeconds(RedisBackendBuilder.DEFAULT_CONNECT_TIMEOUT_SECONDS);

    /**
     * How many replicas every write must reach (WAIT n after each write) before it counts; 0 to 16. Reads then wait
     * too. With 0, no write waits.
     */
    private int waitForReplicas = 0;

    /**
     * The least durability the server must promise for an acknowledged lease write: lost-on-restart (every Redis),
     * lost-on-failover or kept. Below it, the start-up check (and every elector's) refuses the store, naming the
     * server's settings and the fix.
     */
    private Durability minimumDurability = Durability.LOST_ON_RESTART;

    /**
     * Check at start-up that the server answers, is a primary, runs the scripts and promises the minimum durability,
     * and fail the start with the cause and the fix if not. When false, the application starts without the server;
     * each elector runs the same check before it campaigns, and the health contributor tells what is wrong.
     */
    private boolean checkOnStart = true;

    public @Nullable String getUrl() {
        return url;
    }

    public void setUrl(@Nullable String url) {
        this.url = url;
    }

    public @Nullable String getHost() {
        return host;
    }

    public void setHost(@Nullable String host) {
        this.host = host;
    }

    public int getPort() {
        return port;
    }

    public void setPort(int port) {
        this.port = port;
    }

    public int getDatabase() {
        return database;
    }

    public void setDatabase(int database) {
        this.database = database;
    }

    public boolean isSsl() {
        return ssl;
    }

    public void setSsl(boolean ssl) {
        this.ssl = ssl;
    }

    public List<String> getClusterNodes() {
        return clusterNodes;
    }

    public void setClusterNodes(List<String> clusterNodes) {
        this.clusterNodes = clusterNodes;
    }

    public @Nullable String getUsername() {
        return username;
    }

    public void setUsername(@Nullable String username) {
        this.username = username;
    }

    public @Nullable String getPassword() {
        return password;
    }

    public void setPassword(@Nullable String password) {
        this.password = password;
    }

    public String getPrefix() {
        return prefix;
    }

    public void setPrefix(String prefix) {
        this.prefix = prefix;
    }

    public Duration getRequestTimeout() {
        return requestTimeout;
    }

    public void setRequestTimeout(Duration requestTimeout) {
        this.requestTimeout = requestTimeout;
    }

    public Duration getConnectTimeout() {
        return connectTimeout;
    }

    public void setConnectTimeout(Duration connectTimeout) {
        this.connectTimeout = connectTimeout;
    }

    public int getWaitForReplicas() {
        return waitForReplicas;
    }

    public void setWaitForReplicas(int waitForReplicas) {
        this.waitForReplicas = waitForReplicas;
    }

    public Durability getMinimumDurability() {
        return minimumDurability;
    }

    public void setMinimumDurability(Durability minimumDurability) {
        this.minimumDurability = minimumDurability;
    }

    public boolean isCheckOnStart() {
        return checkOnStart;
    }

    public void setCheckOnStart(boolean checkOnStart) {
        this.checkOnStart = checkOnStart;
    }

    /** True when a setting of the connection itself is set, so that the application's factory is not read. */
    boolean hasConnectionSettings() {
        return url != null || host != null || !clusterNodes.isEmpty() || username != null || password != null || ssl;
    }

    @Override
    public String toString() {
        return "RedisProperties[url=" + (url == null ? null : url.replaceAll("(?<=//)[^/@]*@", "")) + ", host=" + host
                + ", port=" + port + ", database=" + database + ", prefix=" + prefix + "]";
    }
}
