package dev.hoplock.azure.blob;

import com.azure.core.credential.TokenCredential;
import com.azure.core.http.HttpClient;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobContainerClientBuilder;
import com.azure.storage.blob.BlobServiceClient;
import com.azure.storage.common.policy.RequestRetryOptions;
import com.azure.storage.common.policy.RetryPolicyType;
import dev.hoplock.core.InvalidSettingException;
import dev.hoplock.core.backend.BackendException;
import org.jspecify.annotations.Nullable;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Configures an {@link AzureBlobBackend}: the container and blob name prefix, and where the client comes from: a
 * {@link BlobServiceClient} or {@link BlobContainerClient} the application already has (Spring Cloud Azure's beans,
 * for example), used as it is; or one the builder creates from a connection string, an endpoint with a SAS token, an
 * endpoint with a {@link TokenCredential}, or an endpoint with {@code DefaultAzureCredential} (managed identity; needs
 * {@code com.azure:azure-identity}).
 *
 * <pre>{@code
 * AzureBlobBackend store = AzureBlobBackend.builder()
 *         .endpoint("https://myaccount.blob.core.windows.net")
 *         .defaultAzureCredential()            // or .sasToken(...), .credential(tokenCredential)
 *         .container("hoplock")                // must exist
 *         .prefix("prod/")
 *         .build();                            // runs the conditional-write probe
 * }</pre>
 *
 * <p>Guarantees: {@link #build()} checks every setting before it contacts the store and, unless
 * {@link #verifyConditionalWrites(boolean) switched off}, runs {@link AzureBlobBackend#verify()}, so that a store
 * that would let two leaders coexist is refused at start. A client the builder creates sends its requests through the
 * JDK's {@code java.net.http} client, with the connect timeout given here and retries (of 503 and 500 answers) bounded
 * by each call's time budget ({@link JdkTransport}); it never reads from a secondary endpoint. Secrets (the connection string, its account
 * key, the SAS token) never appear in messages, {@link AzureBlobBackend#describe()} or {@code toString()}. Not
 * thread-safe; use it from one thread, then discard it.
 */
public final class AzureBlobBackendBuilder {

    /**
     * {@link #DEFAULT_REQUEST_TIMEOUT} in seconds, a compile-time constant: a configuration layer that has this module
     * only as an optional dependency takes its default from here without loading the class.
     */
    public static final long DEFAULT_REQUEST_TIMEOUT_SECONDS = 10;
    /** {@link #DEFAULT_CONNECT_TIMEOUT} in seconds, a compile-time constant (see above). */
    public static final long DEFAULT_CONNECT_TIMEOUT_SECONDS = 3;
    /** The default cap on one backend call, the SDK's retries included. */
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(DEFAULT_REQUEST_TIMEOUT_SECONDS);
    /** The default TCP connect timeout of a client the builder creates. */
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(DEFAULT_CONNECT_TIMEOUT_SECONDS);

    private static final String ENDPOINT_REASON = "must be an http:// or https:// URL with a host and no query";
    private static final String ENDPOINT_RULE = "the Azure Blob endpoint " + ENDPOINT_REASON
            + ", for example https://myaccount.blob.core.windows.net (or http://127.0.0.1:10000/devstoreaccount1 for"
            + " Azurite); a SAS token goes into sasToken(...)";
    private static final Pattern CONNECTION_STRING_SECRET =
            Pattern.compile("(?i)(AccountKey|SharedAccessSignature)=([^;]+)");

    private @Nullable String container;
    private String prefix = "";
    private @Nullable String endpoint;
    private @Nullable String connectionString;
    private @Nullable String sasToken;
    private @Nullable TokenCredential credential;
    private boolean defaultAzureCredential;
    private @Nullable BlobServiceClient serviceClient;
    private @Nullable BlobContainerClient containerClient;
    private Duration requestTimeout = DEFAULT_REQUEST_TIMEOUT;
    private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
    private boolean verifyConditionalWrites = true;
    private boolean verifyOnBuild = true;

    AzureBlobBackendBuilder() {
    }

    /** The container that holds the lease blobs (required unless a container client is given; it must exist). */
    public AzureBlobBackendBuilder container(@Nullable String container) {
        this.container = container;
        return this;
    }

    /**
     * Put before every lease key to form the blob name, exactly as given: with prefix {@code locks/} the lease key
     * {@code billing/leader} is the blob {@code locks/billing/leader}. Letters, digits, {@code . _ - /}; no leading
     * {@code /}, no segment ending in a dot (Azure drops trailing dots); at most 256 characters. Default: none.
     */
    public AzureBlobBackendBuilder prefix(@Nullable String prefix) {
        this.prefix = prefix == null ? "" : prefix;
        return this;
    }

    /**
     * The storage account's blob endpoint, for example {@code https://myaccount.blob.core.windows.net}; with
     * {@link #sasToken}, {@link #credential} or {@link #defaultAzureCredential()}. Never a secondary endpoint.
     */
    public AzureBlobBackendBuilder endpoint(@Nullable String endpoint) {
        this.endpoint = endpoint == null || endpoint.isBlank() ? null : endpoint.strip();
        return this;
    }

    /**
     * A storage connection string ({@code DefaultEndpointsProtocol=https;AccountName=...;AccountKey=...}, or one with
     * {@code SharedAccessSignature=...}); it names the endpoint, so {@link #endpoint} stays unset.
     */
    public AzureBlobBackendBuilder connectionString(@Nullable String connectionString) {
        this.connectionString = connectionString == null || connectionString.isBlank() ? null : connectionString;
        return this;
    }

    /** A SAS token for the container or account ({@code sv=...&sig=...}, with or without a leading {@code ?}). */
    public AzureBlobBackendBuilder sasToken(@Nullable String sasToken) {
        this.sasToken = sasToken == null || sasToken.isBlank() ? null : sasToken.strip();
        return this;
    }

    /** A Microsoft Entra ID token credential (any of Azure Identity's); the endpoint must be https. */
    public AzureBlobBackendBuilder credential(@Nullable TokenCredential credential) {
        this.credential = credential;
        return this;
    }

    /** Azure Identity's {@code DefaultAzureCredential}: needs {@code com.azure:azure-identity} on the class path. */
    public AzureBlobBackendBuilder defaultAzureCredential() {
        this.defaultAzureCredential = true;
        return this;
    }

    /**
     * Uses a service client the application already has (for example Spring Cloud Azure's), with its endpoint,
     * credentials, HTTP client and retry options; {@link #container} names the container. Its retry options must not
     * name a secondary host.
     */
    public AzureBlobBackendBuilder serviceClient(@Nullable BlobServiceClient serviceClient) {
        this.serviceClient = serviceClient;
        return this;
    }

    /** Uses a container client the application already has; {@link #container} must then be unset or the same. */
    public AzureBlobBackendBuilder containerClient(@Nullable BlobContainerClient containerClient) {
        this.containerClient = containerClient;
        return this;
    }

    /**
     * The longest one backend call may take, the SDK's retries and a follow-up read included (default 10 s). The
     * elector's own, usually shorter, budget for a call (the lease time left) applies within this cap.
     */
    public AzureBlobBackendBuilder requestTimeout(Duration requestTimeout) {
        this.requestTimeout = requestTimeout;
        return this;
    }

    /** The TCP connect timeout of the client the builder creates (default 3 s). */
    public AzureBlobBackendBuilder connectTimeout(Duration connectTimeout) {
        this.connectTimeout = connectTimeout;
        return this;
    }

    /**
     * Whether the backend probes its store (default true): {@link #build()} then runs {@link AzureBlobBackend#verify()}
     * and refuses a store without a conditional create and swap. Turned off, nothing is sent at build and verify()
     * reports every capability as assumed.
     */
    public AzureBlobBackendBuilder verifyConditionalWrites(boolean verify) {
        this.verifyConditionalWrites = verify;
        return this;
    }

    /**
     * Whether {@link #build()} probes the store at once (default true). With false, {@code build()} contacts nothing
     * and the first {@link AzureBlobBackend#verify()} runs the probe instead (an elector does before it campaigns).
     */
    public AzureBlobBackendBuilder verifyOnBuild(boolean verifyOnBuild) {
        this.verifyOnBuild = verifyOnBuild;
        return this;
    }

    /**
     * Creates the backend and, unless switched off, verifies the store ({@link AzureBlobBackend#verify()}).
     *
     * @throws InvalidSettingException when a setting is missing, invalid or contradicts another, naming it
     * @throws BackendException         when the probe finds that the store does not honour a conditional create or
     *                                  swap, or the store cannot be asked (unreachable, credentials refused, no such
     *                                  container, ...)
     */
    public AzureBlobBackend build() throws BackendException {
        requirePositive(requestTimeout, "requestTimeout");
        requirePositive(connectTimeout, "connectTimeout");
        Redaction redaction = new Redaction(secrets());
        BlobContainerClient client = containerClient != null ? givenContainerClient(containerClient)
                : serviceClient != null ? givenServiceClient(serviceClient) : ownClient(redaction);
        BlobLocation location = new BlobLocation(client.getAccountUrl(), client.getBlobContainerName(), prefix);
        SecondaryEndpoints.refuseSecondaryHost(containerClient != null ? "containerClient"
                : serviceClient != null ? "serviceClient" : endpoint != null ? "endpoint" : "connectionString",
                client.getAccountUrl());
        AzureBlobBackend backend = new AzureBlobBackend(client, location, requestTimeout, redaction,
                verifyConditionalWrites);
        if (verifyConditionalWrites && verifyOnBuild) {
            backend.requireCreateAndSwap();
        }
        return backend;
    }

    private BlobContainerClient givenContainerClient(BlobContainerClient containerClient) {
        refuseClientSettings("containerClient", serviceClient != null ? "serviceClient" : null);
        if (container != null && !container.equals(containerClient.getBlobContainerName())) {
            throw new InvalidSettingException("container", container, null,
                    "must be unset or the container client's own", "a container client for '"
                    + containerClient.getBlobContainerName() + "' was given, so container(\"" + container + "\")"
                    + " contradicts it: leave container unset, or give a client of that container");
        }
        SecondaryEndpoints.refuseSecondaryRetries("containerClient", containerClient.getHttpPipeline());
        return containerClient;
    }

    private BlobContainerClient givenServiceClient(BlobServiceClient serviceClient) {
        refuseClientSettings("serviceClient", null);
        SecondaryEndpoints.refuseSecondaryRetries("serviceClient", serviceClient.getHttpPipeline());
        return serviceClient.getBlobContainerClient(new BlobLocation("http://check", container, prefix).container());
    }

    /** A given client brings its own endpoint and credentials: none may be set on the builder as well. */
    private void refuseClientSettings(String given, @Nullable String alsoGiven) {
        String conflicting = alsoGiven != null ? alsoGiven : endpoint != null ? "endpoint"
                : connectionString != null ? "connectionString" : sasToken != null ? "sasToken"
                : credential != null ? "credential" : defaultAzureCredential ? "defaultAzureCredential"
                : !connectTimeout.equals(DEFAULT_CONNECT_TIMEOUT) ? "connectTimeout" : null;
        if (conflicting != null) {
            throw new InvalidSettingException(conflicting, null, null, "must be left unset when a " + given
                    + " is given", "a " + given + " was given, so the endpoint, credentials and HTTP settings come"
                    + " from that client: do not set " + conflicting + " on the builder as well");
        }
    }

    private BlobContainerClient ownClient(Redaction redaction) {
        BlobLocation named = new BlobLocation("http://check", container, prefix);
        BlobContainerClientBuilder builder = new BlobContainerClientBuilder()
                .containerName(named.container())
                .httpClient(httpClient())
                .retryOptions(new RequestRetryOptions(RetryPolicyType.EXPONENTIAL, 4,
                        requestTimeout.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1) : requestTimeout,
                        Duration.ofMillis(100), Duration.ofSeconds(1), null));
        if (connectionString != null) {
            String conflicting = endpoint != null ? "endpoint" : sasToken != null ? "sasToken"
                    : credential != null ? "credential" : defaultAzureCredential ? "defaultAzureCredential" : null;
            if (conflicting != null) {
                throw new InvalidSettingException(conflicting, null, null, "must be unset with a connection string",
                        "a connection string names the endpoint and the credentials: do not set " + conflicting
                                + " as well");
            }
            try {
                builder.connectionString(connectionString);
            } catch (RuntimeException e) {
                throw new InvalidSettingException("connectionString", null, null, "is not a storage connection"
                        + " string", "the Azure Storage connection string is not valid ("
                        + redaction.clean(e.getMessage()) + "); copy it from the portal's 'Access keys' page, or use"
                        + " endpoint(...) with a credential");
            }
        } else {
            builder.endpoint(validEndpoint());
            long credentials = (sasToken != null ? 1 : 0) + (credential != null ? 1 : 0) + (defaultAzureCredential ? 1 : 0);
            if (credentials != 1) {
                throw new InvalidSettingException("credential", null, null, "exactly one credential is needed",
                        credentials == 0 ? "no credentials for the Azure Blob endpoint: set sasToken(...),"
                                + " credential(...) or defaultAzureCredential(), or use connectionString(...)"
                                : "more than one credential is set (sasToken, credential, defaultAzureCredential):"
                                + " choose one");
            }
            if (sasToken != null) {
                builder.sasToken(sasToken.startsWith("?") ? sasToken.substring(1) : sasToken);
            } else {
                builder.credential(credential != null ? credential : DefaultCredential.create(httpClient()));
            }
        }
        return builder.buildClient();
    }

    private HttpClient httpClient() {
        return new JdkTransport(connectTimeout, requestTimeout);
    }

    private String validEndpoint() {
        if (endpoint == null) {
            throw new InvalidSettingException("endpoint", null, null, "must be set",
                    "no Azure Blob endpoint: set endpoint(\"https://<account>.blob.core.windows.net\") with a"
                            + " credential, or connectionString(...), or pass a client");
        }
        // First: a secondary endpoint is refused for what it is, also when the URL has other faults (a SAS URL's query).
        SecondaryEndpoints.refuseSecondaryHost("endpoint", endpoint);
        URI uri;
        try {
            uri = new URI(endpoint);
        } catch (java.net.URISyntaxException e) {
            throw new InvalidSettingException("endpoint", BlobLocation.withoutSecrets(endpoint), null, ENDPOINT_REASON,
                    ENDPOINT_RULE);
        }
        String scheme = uri.getScheme();
        if (uri.getRawUserInfo() != null || uri.getRawQuery() != null || uri.getHost() == null
                || !"http".equalsIgnoreCase(scheme) && !"https".equalsIgnoreCase(scheme)) {
            throw new InvalidSettingException("endpoint", BlobLocation.withoutSecrets(endpoint), null, ENDPOINT_REASON,
                    ENDPOINT_RULE + " (" + BlobLocation.withoutSecrets(endpoint) + " is not)");
        }
        return endpoint;
    }

    /** The exact strings that must never be shown: the connection string and its key or SAS, the SAS token. */
    private List<@Nullable String> secrets() {
        List<@Nullable String> secrets = new ArrayList<>();
        secrets.add(sasToken);
        if (sasToken != null && sasToken.startsWith("?")) {
            secrets.add(sasToken.substring(1));
        }
        if (connectionString != null) {
            secrets.add(connectionString);
            Matcher matcher = CONNECTION_STRING_SECRET.matcher(connectionString);
            while (matcher.find()) {
                secrets.add(matcher.group(2));
            }
        }
        return secrets;
    }

    private static void requirePositive(@Nullable Duration duration, String name) {
        if (duration == null || duration.isZero() || duration.isNegative()) {
            throw new InvalidSettingException(name, duration, Duration.ZERO, "must be longer than zero",
                    name + " must be positive, was " + duration);
        }
    }
}
