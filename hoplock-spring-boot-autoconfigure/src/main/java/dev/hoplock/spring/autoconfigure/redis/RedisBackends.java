package dev.hoplock.spring.autoconfigure.redis;

import dev.hoplock.core.InvalidSettingException;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.redis.RedisBackend;
import dev.hoplock.redis.RedisBackendBuilder;
import dev.hoplock.spring.HoplockConfigurationException;
import dev.hoplock.spring.autoconfigure.InvalidSettings;
import io.lettuce.core.RedisURI;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;

/**
 * Builds the {@link RedisBackend} from {@code hoplock.redis.*} (or from the application's Lettuce connection factory)
 * and, with {@code hoplock.redis.check-on-start}, runs its start-up check. Every failure is a
 * {@link HoplockConfigurationException} that names the {@code hoplock.redis.*} property at fault (or the
 * {@code spring.data.redis.*} settings, when the application's factory told where the server is), the cause as the
 * store reported it and the fix. No message contains a password: the store's builder keeps them out of its messages
 * and rejected values, and its start-up failures are redacted by the store.
 */
final class RedisBackends {

    private static final Logger log = LoggerFactory.getLogger(RedisBackends.class);

    static final String URL = "hoplock.redis.url";
    private static final String SKIP_CHECK = " Or set hoplock.redis.check-on-start=false to start without the"
            + " server: each elector runs the same check before it campaigns, and the hoplock health contributor shows"
            + " the cause until it passes.";

    private RedisBackends() {
    }

    /**
     * @param settings    {@code hoplock.redis}
     * @param application the application's connection settings (its Lettuce connection factory), or null
     */
    static RedisBackend create(RedisProperties settings, @Nullable ApplicationRedisConnection application) {
        checkWhere(settings, application);
        boolean reuse = application != null && !settings.hasConnectionSettings();
        if (application != null && !reuse) {
            log.info("hoplock: hoplock.redis sets where the server is or its credentials, so hoplock connects as they"
                    + " say instead of as the application's Redis connection factory does");
        }
        RedisBackendBuilder builder = RedisBackend.builder()
                .prefix(settings.getPrefix())
                .requestTimeout(settings.getRequestTimeout())
                .connectTimeout(settings.getConnectTimeout())
                .waitForReplicas(settings.getWaitForReplicas())
                .minimumDurability(settings.getMinimumDurability())
                .verifyOnBuild(false);
        if (reuse && application != null) {
            where(builder, application);
        } else {
            where(builder, settings);
        }
        RedisBackend backend = build(builder);
        if (settings.isCheckOnStart()) {
            try {
                backend.verify();
            } catch (BackendException | RuntimeException e) {
                backend.close();
                throw checkFailed(e, reuse);
            }
        }
        log.info("hoplock: Redis store {} ({})", backend.describe(),
                reuse ? "where the application's Redis connection factory points, sharing its client resources"
                        : "from hoplock.redis.*");
        return backend;
    }

    private static void checkWhere(RedisProperties settings, @Nullable ApplicationRedisConnection application) {
        int ways = (settings.getUrl() != null ? 1 : 0) + (settings.getHost() != null ? 1 : 0)
                + (settings.getClusterNodes().isEmpty() ? 0 : 1);
        if (ways > 1) {
            throw new HoplockConfigurationException(settings.getUrl() != null ? URL : "hoplock.redis.host",
                    "hoplock.redis names the Redis store more than once: set only one of hoplock.redis.url,"
                            + " hoplock.redis.host (with port and database) and hoplock.redis.cluster-nodes.",
                    "Keep one of them and remove the others.");
        }
        if (ways == 0 && application == null) {
            throw new HoplockConfigurationException(URL,
                    "hoplock.backend is redis, but hoplock.redis.url (or hoplock.redis.host, or"
                            + " hoplock.redis.cluster-nodes) is not set and the application has no Lettuce connection"
                            + " factory (Spring Data Redis) to read it from.",
                    "Set hoplock.redis.url to the server, for example redis://redis.internal:6379/0 (with"
                            + " hoplock.redis.password if it needs one); or add"
                            + " org.springframework.boot:spring-boot-starter-data-redis with spring.data.redis.*,"
                            + " which hoplock then reads.");
        }
        if (ways == 0 && settings.isSsl()) {
            throw new HoplockConfigurationException("hoplock.redis.ssl",
                    "hoplock.redis.ssl is set without hoplock.redis.host.",
                    "Set hoplock.redis.host (ssl applies to it), or use a rediss:// hoplock.redis.url.");
        }
    }

    private static void where(RedisBackendBuilder builder, ApplicationRedisConnection application) {
        if (application.uri() != null) {
            builder.uri(application.uri());
        } else {
            builder.cluster(application.cluster()).username(application.username());
            if (application.password() != null) {
                builder.password(new String(application.password()));
            }
        }
        builder.clientResources(application.resources());
    }

    private static void where(RedisBackendBuilder builder, RedisProperties settings) {
        if (settings.getUrl() != null) {
            builder.uri(settings.getUrl());
        } else if (settings.getHost() != null) {
            builder.uri(RedisURI.builder().withHost(settings.getHost()).withPort(settings.getPort())
                    .withDatabase(settings.getDatabase()).withSsl(settings.isSsl()).build());
        } else {
            builder.cluster(settings.getClusterNodes());
        }
        builder.username(settings.getUsername()).password(settings.getPassword());
    }

    /** Builder setting (as {@link InvalidSettingException#setting()} names it) to the property that supplies it. */
    private static final Map<String, String> PROPERTIES = Map.of(
            "uri", URL,
            "cluster", "hoplock.redis.cluster-nodes",
            "prefix", "hoplock.redis.prefix",
            "requestTimeout", "hoplock.redis.request-timeout",
            "connectTimeout", "hoplock.redis.connect-timeout",
            "waitForReplicas", "hoplock.redis.wait-for-replicas",
            "minimumDurability", "hoplock.redis.minimum-durability");

    /**
     * Builds the store without contacting it; a refused setting is reported under the property that supplies it,
     * found from the exception's {@link InvalidSettingException#setting() setting} field (never from its message).
     */
    private static RedisBackend build(RedisBackendBuilder builder) {
        try {
            return builder.build();
        } catch (InvalidSettingException e) {
            String property = PROPERTIES.getOrDefault(e.setting(), "hoplock.redis");
            String problem = e.rejectedValue() == null ? e.getMessage()
                    : property + " (" + InvalidSettings.shown(e.rejectedValue()) + ") " + e.reason()
                            + (e.limit() == null ? "" : " (limit: " + InvalidSettings.shown(e.limit()) + ")");
            throw new HoplockConfigurationException(property, "Invalid hoplock setting " + property + ": " + problem
                    + ".", action(e.setting(), property), e);
        } catch (IllegalArgumentException | IllegalStateException | BackendException e) {
            throw new HoplockConfigurationException("hoplock.redis",
                    "Cannot configure the Redis store: " + e.getMessage() + ".", "Fix hoplock.redis.", e);
        }
    }

    private static String action(String setting, String property) {
        return switch (setting) {
            case "uri" -> "Set " + property + " to a Redis URI: redis://host:6379/0, rediss://host:6380/0 (TLS) or"
                    + " redis-sentinel://host:26379,host:26380/0#mymaster, with the password in"
                    + " hoplock.redis.password.";
            case "cluster" -> "Set " + property + " to redis://host:port (or rediss://) addresses of cluster nodes.";
            case "prefix" -> "Set " + property + " to 1 to 200 letters, digits or . _ - : / { }, for example hoplock:.";
            case "requestTimeout", "connectTimeout" -> "Set " + property + " to a positive duration, for example 10s.";
            case "waitForReplicas" -> "Set " + property + " to 0 (no WAIT) up to 16.";
            default -> "Fix " + property + ".";
        };
    }

    /** The start-up check's failure, with the property to change; the store's message names the server's side. */
    private static HoplockConfigurationException checkFailed(Exception e, boolean reuse) {
        String description = "The Redis store failed its start-up check"
                + (reuse ? ", where the application's Redis connection factory (spring.data.redis.*) points" : "")
                + ": " + e.getMessage() + ".";
        String where = reuse ? "spring.data.redis.*" : URL;
        BackendException.Kind kind = e instanceof BackendException b ? b.kind() : BackendException.Kind.TRANSIENT;
        return switch (kind) {
            case UNREACHABLE, TRANSIENT -> new HoplockConfigurationException(reuse ? null : URL, description,
                    "Start the server, or point " + where + " at it (host, port, redis:// or rediss://)."
                            + SKIP_CHECK, e);
            case ACCESS_DENIED -> new HoplockConfigurationException(reuse ? null : "hoplock.redis.password",
                    description, "Set " + (reuse ? "spring.data.redis.username and password"
                            : "hoplock.redis.username and hoplock.redis.password") + " to credentials the server"
                            + " accepts, with an ACL that allows hoplock's commands on its prefix (see the Redis"
                            + " store's page).", e);
            case MISSING_CONTAINER, CONDITIONAL_WRITES_NOT_SUPPORTED -> new HoplockConfigurationException(
                    reuse ? null : URL, description, "Point " + where + " at a Redis 4.0 or later (or Valkey) that"
                            + " runs Lua scripts.", e);
            case MISCONFIGURED -> new HoplockConfigurationException(null, description,
                    "Change the server as the message says, or the hoplock side: hoplock.redis.minimum-durability"
                            + " (the least promise accepted), hoplock.redis.wait-for-replicas (replicas each write"
                            + " waits for), or " + where + " (point at the primary or the Sentinels)." + SKIP_CHECK, e);
        };
    }
}
