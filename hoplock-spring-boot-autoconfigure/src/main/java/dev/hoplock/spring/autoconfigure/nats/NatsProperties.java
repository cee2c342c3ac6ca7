package dev.hoplock.spring.autoconfigure.nats;

import dev.hoplock.nats.NatsBackend;
import dev.hoplock.nats.NatsBackendBuilder;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.convert.DurationUnit;

import java.nio.file.Path;
import java.time.Duration;
import java.time.temporal.ChronoUnit;

/**
 * The NATS JetStream store's settings, {@code hoplock.nats.*} (the store needs {@code dev.hoplock:hoplock-nats}), owned
 * by {@link NatsBackendConfiguration}: one key per lease in a JetStream key-value bucket, swapped by its revision.
 *
 * <p>The connection is the application's {@code io.nats.client.Connection} bean when there is exactly one and
 * {@code hoplock.nats} sets no connection setting (url, credentials, connect-timeout); otherwise hoplock opens its own
 * to {@link #getUrl() url}.
 *
 * <p>Guarantees: holds what was bound; the store's builder checks it. The password and the token are never in
 * {@link #toString()}, logs, events, health or endpoint output.
 */
@ConfigurationProperties("hoplock.nats")
public class NatsProperties {

    /**
     * The servers of the connection hoplock opens, comma-separated: nats://host:4222, tls://, ws:// or wss://, without
     * credentials in the URL. Default: the application's io.nats.client.Connection bean.
     */
    private @Nullable String url;

    /** The user of the connection hoplock opens, with password. */
    private @Nullable String username;

    /** The password of that user. Never logged or shown. */
    private @Nullable String password;

    /** An authentication token for the connection hoplock opens, instead of a user. Never logged or shown. */
    private @Nullable String token;

    /** A credentials file (user JWT and nkey seed, as nsc writes it) for the connection hoplock opens. */
    private @Nullable Path credentialsFile;

    /** The key-value bucket that holds the leases: letters, digits, '_' and '-'. */
    private String bucket = NatsBackendBuilder.DEFAULT_BUCKET;

    /** Subject tokens put before every key, for example 'billing' (then a user's permissions can be limited to it). */
    private @Nullable String keyPrefix;

    /**
     * Create the bucket when it does not exist (file storage, a random first revision, history and replicas as set
     * here or 1). The user then needs permission to create and purge the bucket's stream. When false, a missing bucket
     * fails the start-up check.
     */
    private boolean createBucket = false;

    /** The values per key the bucket must keep, 1 to 64; checked at start when set. Default: any (1 when created). */
    private @Nullable Integer history;

    /** The replicas the bucket must have, 1 to 5; checked at start when set. Default: any (1 when created). */
    private @Nullable Integer replicas;

    /** The longest one store call may take. Without a unit: seconds. */
    @DurationUnit(ChronoUnit.SECONDS)
    private Duration requestTimeout = Duration.ofSeconds(NatsBackend.DEFAULT_REQUEST_TIMEOUT_SECONDS);

    /** Connect timeout of the connection hoplock opens. Without a unit: seconds. */
    @DurationUnit(ChronoUnit.SECONDS)
    private Duration connectTimeout = Duration.ofSeconds(NatsBackendBuilder.DEFAULT_CONNECT_TIMEOUT_SECONDS);

    /**
     * Check at start-up that JetStream answers and the bucket exists (or create it) and is fit, and fail the start
     * with the cause and the fix if not. The connection is opened at start either way. When false, each elector runs
     * the same check before it campaigns, and the health contributor tells what is wrong.
     */
    private boolean checkOnStart = true;

    public @Nullable String getUrl() {
        return url;
    }

    public void setUrl(@Nullable String url) {
        this.url = url;
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

    public @Nullable String getToken() {
        return token;
    }

    public void setToken(@Nullable String token) {
        this.token = token;
    }

    public @Nullable Path getCredentialsFile() {
        return credentialsFile;
    }

    public void setCredentialsFile(@Nullable Path credentialsFile) {
        this.credentialsFile = credentialsFile;
    }

    public String getBucket() {
        return bucket;
    }

    public void setBucket(String bucket) {
        this.bucket = bucket;
    }

    public @Nullable String getKeyPrefix() {
        return keyPrefix;
    }

    public void setKeyPrefix(@Nullable String keyPrefix) {
        this.keyPrefix = keyPrefix;
    }

    public boolean isCreateBucket() {
        return createBucket;
    }

    public void setCreateBucket(boolean createBucket) {
        this.createBucket = createBucket;
    }

    public @Nullable Integer getHistory() {
        return history;
    }

    public void setHistory(@Nullable Integer history) {
        this.history = history;
    }

    public @Nullable Integer getReplicas() {
        return replicas;
    }

    public void setReplicas(@Nullable Integer replicas) {
        this.replicas = replicas;
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

    public boolean isCheckOnStart() {
        return checkOnStart;
    }

    public void setCheckOnStart(boolean checkOnStart) {
        this.checkOnStart = checkOnStart;
    }

    /** True when a setting of the connection itself is set, so that hoplock opens its own connection. */
    boolean hasConnectionSettings() {
        return url != null || username != null || password != null || token != null || credentialsFile != null
                || !connectTimeout.equals(Duration.ofSeconds(NatsBackendBuilder.DEFAULT_CONNECT_TIMEOUT_SECONDS));
    }

    @Override
    public String toString() {
        return "NatsProperties[url=" + (url == null ? null : url.replaceAll("(?<=//)[^/@,]*@", "")) + ", bucket="
                + bucket + ", keyPrefix=" + keyPrefix + "]";
    }
}
