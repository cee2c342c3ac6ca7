package dev.hoplock.dynamodb;

import dev.hoplock.core.InvalidSettingException;
import dev.hoplock.core.backend.BackendException;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClientBuilder;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Configures a {@link DynamoDbBackend}: the table, its partition key attribute and an optional item key prefix, and
 * either the settings of a DynamoDB client that the backend creates and owns (region, endpoint, credentials, timeouts)
 * or a {@link DynamoDbClient} the application already has (Spring Cloud AWS's, for example), which the backend then
 * uses as it is and never closes.
 *
 * <pre>{@code
 * DynamoDbBackend store = DynamoDbBackend.builder()
 *         .table("hoplock-leases")               // partition key lease_key (S), no sort key
 *         .region("eu-west-1")                   // credentials: the SDK's default provider chain
 *         .build();                              // checks the table and probes its conditional writes
 * }</pre>
 *
 * <p>Guarantees: {@link #build()} checks every setting before it contacts the store and, unless
 * {@link #verify(boolean) switched off}, runs {@link DynamoDbBackend#verify()}, so that a missing table, a table with
 * the wrong key, a global table or a store that ignores conditions is refused at start with the cause and the fix. A
 * client the builder creates uses the SDK's small {@code java.net.URLConnection} HTTP client. Secrets never appear in
 * messages, {@link DynamoDbBackend#describe()} or {@code toString()}. Not thread-safe; use it from one thread.
 */
public final class DynamoDbBackendBuilder {

    /**
     * {@link #DEFAULT_REQUEST_TIMEOUT} in seconds, a compile-time constant: a configuration layer that has this module
     * only as an optional dependency takes its default from here without loading the class.
     */
    public static final long DEFAULT_REQUEST_TIMEOUT_SECONDS = 10;
    /** {@link #DEFAULT_CONNECT_TIMEOUT} in seconds, a compile-time constant (see above). */
    public static final long DEFAULT_CONNECT_TIMEOUT_SECONDS = 3;
    /** The default cap on one backend call, SDK retries included. */
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(DEFAULT_REQUEST_TIMEOUT_SECONDS);
    /** The default TCP connect timeout of a client the builder creates. */
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(DEFAULT_CONNECT_TIMEOUT_SECONDS);
    /** The partition key attribute used when none is set. */
    public static final String DEFAULT_KEY_ATTRIBUTE = LeaseTable.DEFAULT_KEY_ATTRIBUTE;
    /** The region used with an endpoint override when none is given (emulators ignore it). */
    public static final String DEFAULT_REGION_WITH_ENDPOINT = "us-east-1";

    private static final String ENDPOINT_REASON = "must be an http:// or https:// URL with a host";
    private static final String ENDPOINT_RULE = "the DynamoDB endpoint " + ENDPOINT_REASON
            + ", for example http://127.0.0.1:8000";
    private static final Pattern REGION = Pattern.compile("[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?");

    private @Nullable String table;
    private @Nullable String keyAttribute;
    private String prefix = "";
    private @Nullable String region;
    private @Nullable URI endpoint;
    private @Nullable AwsCredentialsProvider credentials;
    private final List<@Nullable String> secrets = new ArrayList<>();
    private @Nullable DynamoDbClient client;
    private Duration requestTimeout = DEFAULT_REQUEST_TIMEOUT;
    private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
    private TableCreation tableCreation = TableCreation.NEVER;
    private boolean verify = true;
    private boolean verifyOnBuild = true;

    DynamoDbBackendBuilder() {
    }

    /** The table that holds the lease items (required). */
    public DynamoDbBackendBuilder table(@Nullable String table) {
        this.table = table;
        return this;
    }

    /** The table's partition key attribute, of type S, the table's only key (default {@value #DEFAULT_KEY_ATTRIBUTE}). */
    public DynamoDbBackendBuilder keyAttribute(@Nullable String keyAttribute) {
        this.keyAttribute = keyAttribute;
        return this;
    }

    /**
     * Put before every lease key to form the partition key value, exactly as given: with prefix {@code billing/} the
     * lease key {@code leader} is the item {@code billing/leader}. Default: none.
     */
    public DynamoDbBackendBuilder prefix(@Nullable String prefix) {
        this.prefix = prefix == null ? "" : prefix;
        return this;
    }

    /**
     * The region, for example {@code eu-west-1}. Default: the SDK's region provider chain ({@code AWS_REGION},
     * profile, instance metadata), or {@value #DEFAULT_REGION_WITH_ENDPOINT} when an endpoint is set.
     */
    public DynamoDbBackendBuilder region(@Nullable String region) {
        this.region = region == null || region.isBlank() ? null : region.strip();
        return this;
    }

    /** The endpoint of a DynamoDB-compatible store or a VPC endpoint, for example {@code http://127.0.0.1:8000}. */
    public DynamoDbBackendBuilder endpoint(@Nullable String endpoint) {
        if (endpoint == null || endpoint.isBlank()) {
            this.endpoint = null;
            return this;
        }
        try {
            this.endpoint = new URI(endpoint.strip());
        } catch (URISyntaxException e) {
            // Not attached as the cause: the parser's message quotes the whole text, user info included.
            String shown = shownEndpoint(endpoint);
            throw new InvalidSettingException("endpoint", shown, null, ENDPOINT_REASON + "; this is not a URL",
                    ENDPOINT_RULE + "; '" + shown + "' (shown without user info or query) is not a URL ("
                            + e.getReason() + ")");
        }
        return this;
    }

    /** Where credentials come from. Default: the SDK's default credentials provider chain. */
    public DynamoDbBackendBuilder credentials(AwsCredentialsProvider credentials) {
        this.credentials = credentials;
        return this;
    }

    /** Fixed access keys; prefer the default provider chain (a role) on AWS. */
    public DynamoDbBackendBuilder credentials(String accessKeyId, String secretAccessKey) {
        secrets.add(secretAccessKey);
        return credentials(StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKeyId, secretAccessKey)));
    }

    /** Fixed temporary credentials with a session token. */
    public DynamoDbBackendBuilder credentials(String accessKeyId, String secretAccessKey, String sessionToken) {
        secrets.add(secretAccessKey);
        secrets.add(sessionToken);
        return credentials(StaticCredentialsProvider.create(
                AwsSessionCredentials.create(accessKeyId, secretAccessKey, sessionToken)));
    }

    /**
     * Uses a DynamoDB client the application already has, with its region, endpoint, credentials and HTTP client.
     * The backend never closes it. Region, endpoint, credentials and connect timeout must then be left unset.
     */
    public DynamoDbBackendBuilder client(@Nullable DynamoDbClient client) {
        this.client = client;
        return this;
    }

    /**
     * The longest one backend call may take, SDK retries (of throttling and 5xx answers) and a follow-up read
     * included (default 10 s). The elector's own, usually shorter, budget for a call applies within this cap.
     */
    public DynamoDbBackendBuilder requestTimeout(Duration requestTimeout) {
        this.requestTimeout = requestTimeout;
        return this;
    }

    /** The TCP connect timeout of the client the builder creates (default 3 s). */
    public DynamoDbBackendBuilder connectTimeout(Duration connectTimeout) {
        this.connectTimeout = connectTimeout;
        return this;
    }

    /** Whether the start-up check creates a missing table (default {@link TableCreation#NEVER}). */
    public DynamoDbBackendBuilder tableCreation(TableCreation tableCreation) {
        this.tableCreation = tableCreation;
        return this;
    }

    /**
     * Whether the backend runs its start-up check (default true; see {@link DynamoDbBackend#verify()}): table, key
     * schema, no global table, and the conditional-write probe. Turned off, nothing is sent at build, no table is
     * created and verify() reports every capability as assumed.
     */
    public DynamoDbBackendBuilder verify(boolean verify) {
        this.verify = verify;
        return this;
    }

    /**
     * Whether {@link #build()} runs the start-up check at once (default true). With false, {@code build()} contacts
     * nothing and the first {@link DynamoDbBackend#verify()} runs it (an elector does before it campaigns).
     */
    public DynamoDbBackendBuilder verifyOnBuild(boolean verifyOnBuild) {
        this.verifyOnBuild = verifyOnBuild;
        return this;
    }

    /**
     * Creates the backend and, unless switched off, runs the start-up check ({@link DynamoDbBackend#verify()}).
     *
     * @throws InvalidSettingException when a setting is missing, invalid or contradicts another, naming it
     * @throws BackendException         when the start-up check fails, naming the table and the fix
     */
    public DynamoDbBackend build() throws BackendException {
        requirePositive(requestTimeout, "requestTimeout");
        requirePositive(connectTimeout, "connectTimeout");
        if (tableCreation == null) {
            throw new InvalidSettingException("tableCreation", null, null, "must be NEVER or CREATE_IF_MISSING",
                    "tableCreation must be NEVER or CREATE_IF_MISSING");
        }
        Redaction redaction = new Redaction(secrets);
        DynamoDbBackend backend = client != null ? aroundClient(client, redaction) : withOwnClient(redaction);
        if (verify && verifyOnBuild) {
            try {
                backend.verify();
            } catch (BackendException | RuntimeException e) {
                backend.close();
                throw e;
            }
        }
        return backend;
    }

    private DynamoDbBackend aroundClient(DynamoDbClient client, Redaction redaction) {
        String conflicting = region != null ? "region" : endpoint != null ? "endpoint"
                : credentials != null ? "credentials" : !connectTimeout.equals(DEFAULT_CONNECT_TIMEOUT)
                ? "connectTimeout" : null;
        if (conflicting != null) {
            throw new InvalidSettingException(conflicting, null, null, "must be left unset when a DynamoDbClient is"
                    + " given", "a DynamoDbClient was given, so region, endpoint, credentials and connect timeout come"
                    + " from that client: do not set them on the builder as well (" + conflicting + " is set)");
        }
        var configuration = client.serviceClientConfiguration();
        String clientRegion = configuration.region() == null ? "" : configuration.region().id();
        LeaseTable location = new LeaseTable(table, keyAttribute, prefix, configuration.endpointOverride(),
                clientRegion);
        return new DynamoDbBackend(client, false, location, requestTimeout, redaction, tableCreation, verify);
    }

    private DynamoDbBackend withOwnClient(Redaction redaction) throws BackendException {
        if (endpoint != null) {
            validateEndpoint(endpoint);
        }
        if (region != null && !REGION.matcher(region).matches()) {
            throw new InvalidSettingException("region", region, null, "must be a region name such as eu-west-1",
                    "the DynamoDB region '" + region + "' must be a region name such as eu-west-1");
        }
        String effectiveRegion = region != null ? region : endpoint != null ? DEFAULT_REGION_WITH_ENDPOINT : null;
        LeaseTable location = new LeaseTable(table, keyAttribute, prefix, Optional.ofNullable(endpoint),
                effectiveRegion);
        DynamoDbClientBuilder builder = DynamoDbClient.builder()
                .httpClientBuilder(UrlConnectionHttpClient.builder().connectionTimeout(connectTimeout)
                        .socketTimeout(requestTimeout));
        if (effectiveRegion != null) {
            builder.region(Region.of(effectiveRegion));
        }
        if (endpoint != null) {
            builder.endpointOverride(endpoint);
        }
        if (credentials != null) {
            builder.credentialsProvider(credentials);
        }
        DynamoDbClient created;
        try {
            created = builder.build();
        } catch (SdkException e) {
            String message = String.valueOf(e.getMessage());
            if (message.toLowerCase(Locale.ROOT).contains("region")) {
                InvalidSettingException refused = new InvalidSettingException("region", null, null,
                        "must be set: the SDK found no region (AWS_REGION, profile, instance metadata)", "no AWS"
                        + " region for " + location.describe() + ": set region(\"...\") on the DynamoDB backend"
                        + " builder or AWS_REGION in the environment");
                refused.initCause(e);
                throw refused;
            }
            throw new BackendException(BackendException.Kind.MISCONFIGURED, "cannot create the DynamoDB client for "
                    + location.describe() + ": " + redaction.clean(message), e);
        }
        String clientRegion = created.serviceClientConfiguration().region() == null ? ""
                : created.serviceClientConfiguration().region().id();
        return new DynamoDbBackend(created, true, new LeaseTable(table, keyAttribute, prefix,
                Optional.ofNullable(endpoint), clientRegion), requestTimeout, redaction, tableCreation, verify);
    }

    private static void validateEndpoint(URI endpoint) {
        String scheme = endpoint.getScheme();
        String shown = shownEndpoint(endpoint.toString());
        if (endpoint.getRawUserInfo() != null || endpoint.toString().replaceFirst("[?#].*", "").contains("@")) {
            throw new InvalidSettingException("endpoint", shown, null, "must not carry credentials", "the DynamoDB"
                    + " endpoint must not carry credentials (" + shown + " without them); use credentials(...)");
        }
        if (!"http".equalsIgnoreCase(scheme) && !"https".equalsIgnoreCase(scheme) || endpoint.getHost() == null) {
            throw new InvalidSettingException("endpoint", shown, null, ENDPOINT_REASON, ENDPOINT_RULE + " ("
                    + shown + " is not)");
        }
    }

    /**
     * An endpoint as text fit for a message, even when it does not parse: no query or fragment (a pre-signed token),
     * nothing up to the last {@code @} of the authority (user info; an AWS secret key may contain {@code /}, which
     * ends a parsed authority early, so the last {@code @} of the whole text counts).
     */
    static String shownEndpoint(String endpoint) {
        String shown = endpoint.strip().replaceFirst("[?#].*", "");
        int scheme = shown.indexOf("://");
        int at = shown.lastIndexOf('@');
        if (at >= 0) {
            shown = (scheme >= 0 && scheme < at ? shown.substring(0, scheme + 3) : "") + shown.substring(at + 1);
        }
        return shown;
    }

    private static void requirePositive(@Nullable Duration duration, String name) {
        if (duration == null || duration.isZero() || duration.isNegative()) {
            throw new InvalidSettingException(name, duration, Duration.ZERO, "must be longer than zero",
                    name + " must be positive, was " + duration);
        }
    }
}
