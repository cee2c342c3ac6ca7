package dev.hoplock.spring.autoconfigure.elasticsearch;

import dev.hoplock.elasticsearch.ElasticsearchBackendBuilder;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.convert.DurationUnit;

import java.time.Duration;
import java.time.temporal.ChronoUnit;

/**
 * The Elasticsearch / OpenSearch store's settings, {@code hoplock.elasticsearch.*} (the store needs
 * {@code dev.hoplock:hoplock-elasticsearch}), owned by {@link ElasticsearchBackendConfiguration}: one document per
 * lease key in one index, swapped by its sequence number and primary term.
 *
 * <p>Guarantees: holds what was bound; the store's builder checks it. The password and the API key are never in
 * {@link #toString()} (nor a password in the endpoint's user info), logs, events, health or endpoint output.
 */
@ConfigurationProperties("hoplock.elasticsearch")
public class ElasticsearchProperties {

    /**
     * The cluster's URL, for example https://search.example.com:9200 (a path prefix is kept). Default: the
     * application's Elasticsearch low-level client (the Rest5Client bean Spring Boot configures from
     * spring.elasticsearch.*), with its hosts, credentials and TLS settings.
     */
    private @Nullable String endpoint;

    /** The index that holds the lease documents; hoplock creates it with its mapping when missing. */
    private String index = "hoplock-leases";

    /** User name for basic authentication, with password. */
    private @Nullable String username;

    /** Password for basic authentication, with username. Never logged or shown. */
    private @Nullable String password;

    /** An Elasticsearch API key, as Elasticsearch prints it in 'encoded' (base64 of id:key). Never logged or shown. */
    private @Nullable String apiKey;

    /**
     * Create the index with hoplock's fixed mapping when it does not exist. Turn off when the credentials may not
     * create indices; then create it beforehand with the mapping in the README.
     */
    private boolean createIndex = true;

    /**
     * Check at start-up that the cluster answers, that the index exists (or create it) and that compare-and-swap
     * works, and fail the start with the cause and the fix if not. When false, the application starts without
     * the cluster; each elector runs the same check before it campaigns, and the health contributor tells what
     * is wrong.
     */
    private boolean checkOnStart = true;

    /** The longest one store call may take, all its requests together. Without a unit: seconds. */
    @DurationUnit(ChronoUnit.SECONDS)
    private Duration requestTimeout = Duration.ofSeconds(ElasticsearchBackendBuilder.DEFAULT_REQUEST_TIMEOUT_SECONDS);

    /** TCP connect timeout of the HTTP client hoplock creates. Without a unit: seconds. */
    @DurationUnit(ChronoUnit.SECONDS)
    private Duration connectTimeout = Duration.ofSeconds(ElasticsearchBackendBuilder.DEFAULT_CONNECT_TIMEOUT_SECONDS);

    public @Nullable String getEndpoint() {
        return endpoint;
    }

    public void setEndpoint(@Nullable String endpoint) {
        this.endpoint = endpoint;
    }

    public String getIndex() {
        return index;
    }

    public void setIndex(String index) {
        this.index = index;
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

    public @Nullable String getApiKey() {
        return apiKey;
    }

    public void setApiKey(@Nullable String apiKey) {
        this.apiKey = apiKey;
    }

    public boolean isCreateIndex() {
        return createIndex;
    }

    public void setCreateIndex(boolean createIndex) {
        this.createIndex = createIndex;
    }

    public boolean isCheckOnStart() {
        return checkOnStart;
    }

    public void setCheckOnStart(boolean checkOnStart) {
        this.checkOnStart = checkOnStart;
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

    /** True when a setting of the HTTP client itself is set, so that hoplock creates its own client. */
    boolean hasClientSettings() {
        return endpoint != null || username != null || password != null || apiKey != null;
    }

    @Override
    public String toString() {
        return "ElasticsearchProperties[endpoint=" + (endpoint == null ? null : endpoint.replaceAll("(?<=//)[^/@]*@", ""))
                + ", index=" + index + "]";
    }
}
