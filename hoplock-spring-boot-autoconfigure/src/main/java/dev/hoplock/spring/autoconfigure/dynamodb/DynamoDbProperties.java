package dev.hoplock.spring.autoconfigure.dynamodb;

import dev.hoplock.dynamodb.DynamoDbBackendBuilder;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.convert.DurationUnit;

import java.time.Duration;
import java.time.temporal.ChronoUnit;

/**
 * The DynamoDB store's settings, {@code hoplock.dynamodb.*} (the store needs {@code dev.hoplock:hoplock-dynamodb}),
 * owned by {@link DynamoDbBackendConfiguration}: one item per lease in one table, swapped by a conditional write on a
 * random version, read strongly consistent.
 *
 * <p>The client is the application's {@code DynamoDbClient} bean (Spring Cloud AWS's, for example) when there is
 * exactly one and {@code hoplock.dynamodb} sets no client setting (region, endpoint, credentials, connect-timeout);
 * otherwise hoplock creates its own.
 *
 * <p>Guarantees: holds what was bound; the store's builder checks it. The secret key and the session token are never
 * in {@link #toString()}, logs, events, health or endpoint output.
 */
@ConfigurationProperties("hoplock.dynamodb")
public class DynamoDbProperties {

    /** The table that holds the lease items: partition key of type S (key-attribute), no sort key. Required. */
    private @Nullable String table;

    /** The table's partition key attribute, of type S. */
    private String keyAttribute = DynamoDbBackendBuilder.DEFAULT_KEY_ATTRIBUTE;

    /** Put before every lease key to form the partition key value, exactly as given, for example 'billing/'. */
    private String prefix = "";

    /**
     * Create the table at start-up when it is missing (on-demand capacity, the partition key only); an existing table
     * is never changed. Needs dynamodb:CreateTable. When false, the table must exist: the start-up check verifies its
     * key schema either way.
     */
    private boolean createTable = false;

    /**
     * The region, for example eu-west-1. Default: the AWS SDK's region chain (AWS_REGION, profile, instance
     * metadata), or us-east-1 when an endpoint is set.
     */
    private @Nullable String region;

    /** The endpoint of a DynamoDB-compatible store or a VPC endpoint, for example http://127.0.0.1:8000. */
    private @Nullable String endpoint;

    /** Static access key id. Default: the AWS SDK's default credentials chain. */
    private @Nullable String accessKey;

    /** Static secret access key, used with access-key. Never logged or shown. */
    private @Nullable String secretKey;

    /** Session token of temporary credentials, used with access-key and secret-key. Never logged or shown. */
    private @Nullable String sessionToken;

    /** The longest one store call may take, SDK retries included. Without a unit: seconds. */
    @DurationUnit(ChronoUnit.SECONDS)
    private Duration requestTimeout = Duration.ofSeconds(DynamoDbBackendBuilder.DEFAULT_REQUEST_TIMEOUT_SECONDS);

    /** TCP connect timeout of the client hoplock creates. Without a unit: seconds. */
    @DurationUnit(ChronoUnit.SECONDS)
    private Duration connectTimeout = Duration.ofSeconds(DynamoDbBackendBuilder.DEFAULT_CONNECT_TIMEOUT_SECONDS);

    /**
     * Run the start-up check (the table, its key schema, no global table, the conditional-write probe) when the
     * context starts, and fail the start with the cause and the fix if it fails. When false, each elector runs it
     * before it campaigns, and the health contributor tells what is wrong.
     */
    private boolean checkOnStart = true;

    public @Nullable String getTable() {
        return table;
    }

    public void setTable(@Nullable String table) {
        this.table = table;
    }

    public String getKeyAttribute() {
        return keyAttribute;
    }

    public void setKeyAttribute(String keyAttribute) {
        this.keyAttribute = keyAttribute;
    }

    public String getPrefix() {
        return prefix;
    }

    public void setPrefix(String prefix) {
        this.prefix = prefix;
    }

    public boolean isCreateTable() {
        return createTable;
    }

    public void setCreateTable(boolean createTable) {
        this.createTable = createTable;
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

    /** True when a setting of the client itself is set, so that hoplock creates its own client. */
    boolean hasClientSettings() {
        return region != null || endpoint != null || accessKey != null || secretKey != null || sessionToken != null
                || !connectTimeout.equals(Duration.ofSeconds(DynamoDbBackendBuilder.DEFAULT_CONNECT_TIMEOUT_SECONDS));
    }

    @Override
    public String toString() {
        return "DynamoDbProperties[table=" + table + ", prefix=" + prefix + ", endpoint=" + endpoint + "]";
    }
}
