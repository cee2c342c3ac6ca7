package dev.hoplock.spring.autoconfigure.azure;

import dev.hoplock.azure.blob.AzureBlobBackendBuilder;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.convert.DurationUnit;

import java.time.Duration;
import java.time.temporal.ChronoUnit;

/**
 * The Azure Blob Storage store's settings, {@code hoplock.azure-blob.*} (the store needs
 * {@code dev.hoplock:hoplock-azure-blob}), owned by {@link AzureBlobBackendConfiguration}: one block blob per lease in
 * one container, swapped by its ETag.
 *
 * <p>The client is the application's {@code BlobContainerClient} bean, or else its {@code BlobServiceClient} bean
 * (Spring Cloud Azure's, for example), when there is exactly one and {@code hoplock.azure-blob} sets no client setting
 * (endpoint, connection-string, sas-token, default-credential, connect-timeout); otherwise hoplock creates its own.
 *
 * <p>Guarantees: holds what was bound; the store's builder checks it. The connection string and the SAS token are never
 * in {@link #toString()}, logs, events, health or endpoint output.
 */
@ConfigurationProperties("hoplock.azure-blob")
public class AzureBlobProperties {

    /**
     * The container that holds the lease blobs; it must exist. Required, unless the application's BlobContainerClient
     * names it.
     */
    private @Nullable String container;

    /** Put before every lease key to form the blob name, exactly as given, for example 'locks/'. */
    private String prefix = "";

    /**
     * The storage account's blob endpoint, for example https://myaccount.blob.core.windows.net; with sas-token or
     * default-credential. Default: the application's client, or the connection string's endpoint.
     */
    private @Nullable String endpoint;

    /**
     * A storage connection string (DefaultEndpointsProtocol=https;AccountName=...;AccountKey=..., or one with
     * SharedAccessSignature=...), which names the endpoint and the shared key or SAS. Never logged or shown.
     */
    private @Nullable String connectionString;

    /** A SAS token for the container or account (sv=...&sig=...), with endpoint. Never logged or shown. */
    private @Nullable String sasToken;

    /**
     * Authenticate with Azure Identity's DefaultAzureCredential (managed identity, workload identity, Azure CLI,
     * environment), with endpoint; needs com.azure:azure-identity.
     */
    private boolean defaultCredential = false;

    /** The longest one store call may take, the SDK's retries included. Without a unit: seconds. */
    @DurationUnit(ChronoUnit.SECONDS)
    private Duration requestTimeout = Duration.ofSeconds(AzureBlobBackendBuilder.DEFAULT_REQUEST_TIMEOUT_SECONDS);

    /** TCP connect timeout of the client hoplock creates. Without a unit: seconds. */
    @DurationUnit(ChronoUnit.SECONDS)
    private Duration connectTimeout = Duration.ofSeconds(AzureBlobBackendBuilder.DEFAULT_CONNECT_TIMEOUT_SECONDS);

    /**
     * Run the store's conditional-write probe (which also shows a missing container, refused credentials or an
     * unreachable endpoint) when the context starts, and fail the start with the cause and the fix if it fails. When
     * false, each elector runs it before it campaigns, and the health contributor tells what is wrong.
     */
    private boolean checkOnStart = true;

    public @Nullable String getContainer() {
        return container;
    }

    public void setContainer(@Nullable String container) {
        this.container = container;
    }

    public String getPrefix() {
        return prefix;
    }

    public void setPrefix(String prefix) {
        this.prefix = prefix;
    }

    public @Nullable String getEndpoint() {
        return endpoint;
    }

    public void setEndpoint(@Nullable String endpoint) {
        this.endpoint = endpoint;
    }

    public @Nullable String getConnectionString() {
        return connectionString;
    }

    public void setConnectionString(@Nullable String connectionString) {
        this.connectionString = connectionString;
    }

    public @Nullable String getSasToken() {
        return sasToken;
    }

    public void setSasToken(@Nullable String sasToken) {
        this.sasToken = sasToken;
    }

    public boolean isDefaultCredential() {
        return defaultCredential;
    }

    public void setDefaultCredential(boolean defaultCredential) {
        this.defaultCredential = defaultCredential;
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
        return endpoint != null || connectionString != null || sasToken != null || defaultCredential
                || !connectTimeout.equals(Duration.ofSeconds(AzureBlobBackendBuilder.DEFAULT_CONNECT_TIMEOUT_SECONDS));
    }

    @Override
    public String toString() {
        return "AzureBlobProperties[container=" + container + ", prefix=" + prefix + ", endpoint="
                + (endpoint == null ? null : endpoint.replaceAll("\\?.*", "")) + "]";
    }
}
