package dev.hoplock.redis;

import dev.hoplock.core.InvalidSettingException;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.Durability;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCredentials;
import io.lettuce.core.RedisCredentialsProvider;
import io.lettuce.core.RedisURI;
import io.lettuce.core.StaticCredentialsProvider;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.resource.ClientResources;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Configures a {@link RedisBackend}: where the store is (one server or Sentinel by {@link #uri(String)}, or a cluster by
 * {@link #cluster(List)}), the credentials, the key prefix, the timeouts, how many replicas each write waits for, and
 * the least durability accepted.
 *
 * <p>Guarantees: {@link #build()} checks every setting before it contacts the store and then, unless
 * {@link #verifyOnBuild(boolean) switched off}, runs {@link RedisBackend#verify()}, so that a wrong password, a replica
 * as the target, an ACL without the scripts or a store below the minimum durability is reported at start. A bad
 * setting is refused with an {@link InvalidSettingException} whose {@link InvalidSettingException#setting() setting} is
 * the name of this builder's method for it ({@code uri}, {@code cluster}, {@code prefix}, {@code requestTimeout},
 * {@code connectTimeout}, {@code waitForReplicas}, {@code minimumDurability}), so that a configuration layer can name
 * its own property; no message or rejected value contains a password. Not thread-safe; use it from one thread, then
 * discard it.
 */
public final class RedisBackendBuilder {

    /** {@link #DEFAULT_CONNECT_TIMEOUT} in seconds, a compile-time constant for configuration layers. */
    public static final long DEFAULT_CONNECT_TIMEOUT_SECONDS = 3;
    /** The default TCP connect timeout. */
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(DEFAULT_CONNECT_TIMEOUT_SECONDS);
    /** The most replicas a write may wait for: more is a configuration mistake, not a deployment. */
    public static final int MAX_WAIT_FOR_REPLICAS = 16;

    private static final String URI_RULE = "a Redis URI: redis://host:6379/0, rediss://host:6380/0 (TLS),"
            + " redis-sentinel://host:26379,host:26380/0#mymaster or redis-socket:///path/to/redis.sock";

    private @Nullable String uri;
    private @Nullable RedisURI redisUri;
    private final List<String> clusterNodes = new ArrayList<>();
    private @Nullable String username;
    private char @Nullable [] password;
    private String prefix = KeyPrefix.DEFAULT;
    private Duration requestTimeout = RedisBackend.DEFAULT_REQUEST_TIMEOUT;
    private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
    private int waitForReplicas;
    private Durability minimumDurability = Durability.LOST_ON_RESTART;
    private boolean verifyOnBuild = true;
    private @Nullable ClientResources clientResources;

    RedisBackendBuilder() {
    }

    /**
     * The server, or the Sentinels and the primary's name: {@code redis://host:6379/0}, {@code rediss://...} for TLS,
     * {@code redis-sentinel://host:26379,host:26380/0#mymaster}, {@code redis-socket:///path}. It may carry a password
     * ({@code redis://:secret@host:6379}); prefer {@link #password(CharSequence)}, which wins over it.
     */
    public RedisBackendBuilder uri(String uri) {
        this.uri = uri;
        return this;
    }

    /**
     * The server as a Lettuce {@link RedisURI} (for a configuration layer that builds one), with its credentials, TLS
     * and Sentinel settings; the user name and password of this builder, if set, are set on it at build.
     */
    public RedisBackendBuilder uri(RedisURI uri) {
        this.redisUri = uri;
        return this;
    }

    /**
     * A Redis Cluster, by some of its nodes ({@code redis://host:7000}); instead of {@link #uri(String)}. Each lease is
     * one key in one slot and each script names that key only, which is all a cluster needs.
     */
    public RedisBackendBuilder cluster(List<String> seedNodes) {
        this.clusterNodes.clear();
        this.clusterNodes.addAll(seedNodes);
        return this;
    }

    /** The ACL user name (Redis 6 or later); default: the URI's, or {@code default}. */
    public RedisBackendBuilder username(@Nullable String username) {
        this.username = username;
        return this;
    }

    /** The password; wins over one in the URI. Kept as characters and handed to Lettuce only. */
    public RedisBackendBuilder password(@Nullable CharSequence password) {
        this.password = password == null ? null : password.toString().toCharArray();
        return this;
    }

    /**
     * Put before every lease key to form its Redis key (default {@value KeyPrefix#DEFAULT}): {@link KeyPrefix#RULE}.
     * With prefix {@code hoplock:} the lease key {@code billing/leader} lives at {@code hoplock:billing/leader}.
     */
    public RedisBackendBuilder prefix(String prefix) {
        this.prefix = prefix;
        return this;
    }

    /** The longest one backend call may take (default 10 s), connecting and {@code WAIT} included. */
    public RedisBackendBuilder requestTimeout(Duration requestTimeout) {
        this.requestTimeout = requestTimeout;
        return this;
    }

    /** The TCP connect timeout (default 3 s). */
    public RedisBackendBuilder connectTimeout(Duration connectTimeout) {
        this.connectTimeout = connectTimeout;
        return this;
    }

    /**
     * How many replicas every write must reach before it counts (default 0: none). With n &gt; 0, each successful
     * write is followed by {@code WAIT n} within the call's budget, a write that reached fewer is an unknown outcome,
     * and reads are confirmed the same way (see {@link RedisBackend}). 0 to {@value #MAX_WAIT_FOR_REPLICAS}.
     * {@link Durability#KEPT} needs n to be the number of replicas connected to each primary (a failover may promote
     * any of them; docs/stores/redis.md), and more than are connected is refused by the check.
     */
    public RedisBackendBuilder waitForReplicas(int waitForReplicas) {
        this.waitForReplicas = waitForReplicas;
        return this;
    }

    /**
     * The least durability the store must promise ({@link RedisBackend#verify()}), or it is refused naming the
     * server's settings and the fix. Default {@link Durability#LOST_ON_RESTART}: every Redis is accepted, and one that
     * promises less than {@link Durability#KEPT} is reported with a warning.
     */
    public RedisBackendBuilder minimumDurability(Durability minimumDurability) {
        this.minimumDurability = minimumDurability;
        return this;
    }

    /** Whether {@link #build()} verifies the store at once (default true); with false it contacts nothing. */
    public RedisBackendBuilder verifyOnBuild(boolean verifyOnBuild) {
        this.verifyOnBuild = verifyOnBuild;
        return this;
    }

    /**
     * Lettuce's shared resources (event loops, timers) of the application, so that the backend creates no threads
     * of its own; the backend never shuts them down. Default: the client's own.
     */
    public RedisBackendBuilder clientResources(@Nullable ClientResources clientResources) {
        this.clientResources = clientResources;
        return this;
    }

    /**
     * Creates the backend and, unless switched off, verifies the store.
     *
     * @throws InvalidSettingException when a setting is missing, invalid or contradicts another, naming it
     * @throws BackendException         when the check fails (see {@link RedisBackend#verify()})
     */
    public RedisBackend build() throws BackendException {
        requirePositive(requestTimeout, "requestTimeout");
        requirePositive(connectTimeout, "connectTimeout");
        KeyPrefix keyPrefix;
        try {
            keyPrefix = new KeyPrefix(Objects.requireNonNull(prefix, "prefix"));
        } catch (IllegalArgumentException e) {
            throw new InvalidSettingException("prefix", KeyPrefix.printable(prefix), null, "must be " + KeyPrefix.RULE,
                    String.valueOf(e.getMessage()));
        }
        if (waitForReplicas < 0 || waitForReplicas > MAX_WAIT_FOR_REPLICAS) {
            throw new InvalidSettingException("waitForReplicas", waitForReplicas, MAX_WAIT_FOR_REPLICAS,
                    "must be 0 to " + MAX_WAIT_FOR_REPLICAS, "waitForReplicas must be 0 (no WAIT) to "
                    + MAX_WAIT_FOR_REPLICAS + ", was " + waitForReplicas);
        }
        Objects.requireNonNull(minimumDurability, "minimumDurability");
        RedisTarget target = target();
        List<String> secrets = new ArrayList<>();
        for (RedisURI each : target.uris()) {
            RedisCredentials credentials = credentials(each);
            if (credentials != null && credentials.hasPassword()) {
                secrets.add(new String(credentials.getPassword()));
            }
        }
        Redaction redaction = new Redaction(secrets);
        RedisLink link = link(target);
        RedisBackend backend = new RedisBackend(link, target, keyPrefix, requestTimeout, waitForReplicas,
                minimumDurability, redaction);
        if (verifyOnBuild) {
            try {
                backend.verify();
            } catch (BackendException | RuntimeException e) {
                backend.close();
                throw e;
            }
        }
        return backend;
    }

    private RedisTarget target() {
        int given = (uri != null ? 1 : 0) + (redisUri != null ? 1 : 0) + (clusterNodes.isEmpty() ? 0 : 1);
        if (given == 0) {
            throw new InvalidSettingException("uri", null, null, "must be set", "no Redis server configured: call"
                    + " uri(\"redis://host:6379/0\") (or a Sentinel URI), or cluster(List.of(\"redis://host:7000\"))");
        }
        if (given > 1) {
            throw new InvalidSettingException(clusterNodes.isEmpty() ? "uri" : "cluster", null, null,
                    "must be the only way the store is named", "name the Redis store once: uri(...) for one server or"
                    + " Sentinel, or cluster(...) for a Redis Cluster, not both");
        }
        if (!clusterNodes.isEmpty()) {
            List<RedisURI> seeds = new ArrayList<>();
            for (String node : clusterNodes) {
                RedisURI parsed = parse("cluster", node);
                if (parsed.getSentinels() != null && !parsed.getSentinels().isEmpty() || parsed.getSocket() != null) {
                    throw new InvalidSettingException("cluster", Uris.withoutUserInfo(node), null,
                            "must be redis:// or rediss:// node addresses", "a cluster node must be redis://host:port or"
                            + " rediss://host:port, was " + Uris.withoutUserInfo(node));
                }
                seeds.add(withSettings(parsed));
            }
            return new RedisTarget(RedisTarget.Mode.CLUSTER, seeds);
        }
        RedisURI parsed = redisUri != null ? redisUri : parse("uri", Objects.requireNonNull(uri));
        boolean sentinel = parsed.getSentinels() != null && !parsed.getSentinels().isEmpty();
        if (sentinel && (parsed.getSentinelMasterId() == null || parsed.getSentinelMasterId().isBlank())) {
            throw new InvalidSettingException("uri", Uris.withoutUserInfo(String.valueOf(uri)), null,
                    "must name the primary after #", "a Sentinel URI must name the monitored primary after '#':"
                    + " redis-sentinel://host:26379/0#mymaster");
        }
        return new RedisTarget(sentinel ? RedisTarget.Mode.SENTINEL : RedisTarget.Mode.STANDALONE,
                List.of(withSettings(parsed)));
    }

    private static RedisURI parse(String setting, String text) {
        String shown = Uris.withoutUserInfo(text.strip());
        if (text.isBlank()) {
            throw new InvalidSettingException(setting, "", null, "must be " + URI_RULE, "the Redis URI is empty: use "
                    + URI_RULE);
        }
        try {
            RedisURI parsed = RedisURI.create(text.strip());
            if (parsed.getSocket() == null && (parsed.getSentinels() == null || parsed.getSentinels().isEmpty())
                    && (parsed.getHost() == null || parsed.getHost().isBlank())) {
                throw new IllegalArgumentException("no host");
            }
            return parsed;
        } catch (RuntimeException e) {
            // The cause may quote the URI with its password: it is not attached.
            throw new InvalidSettingException(setting, shown, null, "must be " + URI_RULE, "'" + shown + "' is not "
                    + URI_RULE);
        }
    }

    /**
     * {@code uri} with this builder's user name and password, which win over the URI's own (the URI's user name stays
     * when no user name is set). Through the credentials provider, the one way Lettuce 6.2 to 7 all offer.
     */
    private RedisURI withSettings(RedisURI uri) {
        if (password != null) {
            String user = username;
            if (user == null || user.isBlank()) {
                RedisCredentials own = credentials(uri);
                user = own != null && own.hasUsername() ? own.getUsername() : null;
            }
            uri.setCredentialsProvider(new StaticCredentialsProvider(user, password.clone()));
        }
        return uri;
    }

    /**
     * The credentials {@code uri} carries, or null when it has none. The URIs here are parsed or built by this builder,
     * so their provider is Lettuce's own over fixed values: immediate on Lettuce 6, a {@code Mono.just} on Lettuce 7
     * (whose {@code RedisURI} has no password getter any more); the wait is bounded all the same.
     */
    private static @Nullable RedisCredentials credentials(RedisURI uri) {
        RedisCredentialsProvider provider = uri.getCredentialsProvider();
        if (provider == null) {
            return null;
        }
        if (provider instanceof RedisCredentialsProvider.ImmediateRedisCredentialsProvider immediate) {
            return immediate.resolveCredentialsNow();
        }
        return provider.resolveCredentials().block(Duration.ofSeconds(1));
    }

    private RedisLink link(RedisTarget target) {
        if (target.mode() == RedisTarget.Mode.CLUSTER) {
            RedisClusterClient client = clientResources == null ? RedisClusterClient.create(target.uris())
                    : RedisClusterClient.create(clientResources, target.uris());
            client.setOptions(LettuceOptions.cluster(connectTimeout, requestTimeout));
            return new ClusterLink(client, true);
        }
        RedisClient client = clientResources == null ? RedisClient.create() : RedisClient.create(clientResources);
        client.setOptions(LettuceOptions.standalone(connectTimeout, requestTimeout));
        return new StandaloneLink(client, true, target.uri(), target.describe());
    }

    private static void requirePositive(@Nullable Duration duration, String name) {
        if (duration == null || duration.isZero() || duration.isNegative()) {
            throw new InvalidSettingException(name, duration, Duration.ZERO, "must be longer than zero",
                    name + " must be positive, was " + duration);
        }
    }
}
