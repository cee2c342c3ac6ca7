package dev.hoplock.spring.autoconfigure.s3;

import dev.hoplock.s3.S3BackendBuilder;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.convert.DurationUnit;

import java.time.Duration;
import java.time.temporal.ChronoUnit;

/**
 * The S3 store's settings, {@code hoplock.s3.*} (the store needs {@code dev.hoplock:hoplock-s3}), owned by
 * {@link S3BackendConfiguration}: only present when the store module is. {@code hoplock.probe}, which decides whether
 * the store's verification runs the conditional-write probe, is a shared setting ({@code HoplockProperties}).
 *
 * <p>Guarantees: holds what was bound; the store's builder checks it. The secret key and the session token are never
 * in {@link #toString()}, logs, events, health or endpoint output.
 */
@ConfigurationProperties("hoplock.s3")
public class S3Properties {

    /** The bucket that holds the lease objects. It must exist. */
    private @Nullable String bucket;

    /** Put before every lease key to form the object key, exactly as given, for example 'locks/'. */
    private String prefix = "";

    /**
     * The region, for example eu-west-1. Default: the AWS SDK's region chain (AWS_REGION, profile), or us-east-1
     * when an endpoint is set.
     */
    private @Nullable String region;

    /** The endpoint of an S3-compatible store, for example http://127.0.0.1:9000. Default: AWS S3. */
    private @Nullable String endpoint;

    /** Address the bucket in the path (host/bucket/key) instead of the host name. Needed by MinIO. */
    private boolean pathStyle = false;

    /** Static access key id. Default: the AWS SDK's default credentials chain. */
    private @Nullable String accessKey;

    /** Static secret access key, used with access-key. Never logged or shown. */
    private @Nullable String secretKey;

    /** Session token of temporary credentials, used with access-key and secret-key. Never logged or shown. */
    private @Nullable String sessionToken;

    /** The longest one S3 call may take, SDK retries included. Without a unit: seconds. */
    @DurationUnit(ChronoUnit.SECONDS)
    private Duration apiCallTimeout = Duration.ofSeconds(S3BackendBuilder.DEFAULT_REQUEST_TIMEOUT_SECONDS);

    /** TCP connect timeout of the S3 client hoplock creates. Without a unit: seconds. */
    @DurationUnit(ChronoUnit.SECONDS)
    private Duration connectTimeout = Duration.ofSeconds(S3BackendBuilder.DEFAULT_CONNECT_TIMEOUT_SECONDS);

    public @Nullable String getBucket() {
        return bucket;
    }

    public void setBucket(@Nullable String bucket) {
        this.bucket = bucket;
    }

    public String getPrefix() {
        return prefix;
    }

    public void setPrefix(String prefix) {
        this.prefix = prefix;
    }

    public @Nullable String getRegion() {
        return region;
    }

    public void setRegion(@Nullable String region) {
        this.region = region;
    }

    public @Nullable String getEndpoint() {
        return endpoint;
    }

    public void setEndpoint(@Nullable String endpoint) {
        this.endpoint = endpoint;
    }

    public boolean isPathStyle() {
        return pathStyle;
    }

    public void setPathStyle(boolean pathStyle) {
        this.pathStyle = pathStyle;
    }

    public @Nullable String getAccessKey() {
        return accessKey;
    }

    public void setAccessKey(@Nullable String accessKey) {
        this.accessKey = accessKey;
    }

    public @Nullable String getSecretKey() {
        return secretKey;
    }

    public void setSecretKey(@Nullable String secretKey) {
        this.secretKey = secretKey;
    }

    public @Nullable String getSessionToken() {
        return sessionToken;
    }

    public void setSessionToken(@Nullable String sessionToken) {
        this.sessionToken = sessionToken;
    }

    public Duration getApiCallTimeout() {
        return apiCallTimeout;
    }

    public void setApiCallTimeout(Duration apiCallTimeout) {
        this.apiCallTimeout = apiCallTimeout;
    }

    public Duration getConnectTimeout() {
        return connectTimeout;
    }

    public void setConnectTimeout(Duration connectTimeout) {
        this.connectTimeout = connectTimeout;
    }

    /** True when any setting of the S3 client itself is set, so that hoplock builds its own client. */
    boolean hasClientSettings() {
        return region != null || endpoint != null || pathStyle || accessKey != null || secretKey != null
                || sessionToken != null;
    }

    @Override
    public String toString() {
        return "S3Properties[bucket=" + bucket + ", prefix=" + prefix + ", endpoint=" + endpoint + "]";
    }
}
