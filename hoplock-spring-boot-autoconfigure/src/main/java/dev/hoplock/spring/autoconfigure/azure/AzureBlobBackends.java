package dev.hoplock.spring.autoconfigure.azure;

import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobServiceClient;
import dev.hoplock.azure.blob.AzureBlobBackend;
import dev.hoplock.azure.blob.AzureBlobBackendBuilder;
import dev.hoplock.core.InvalidSettingException;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.spring.HoplockConfigurationException;
import dev.hoplock.spring.autoconfigure.InvalidSettings;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;

/**
 * Builds the {@link AzureBlobBackend} from {@code hoplock.azure-blob.*} (over the application's client, or one of its
 * own) and, with {@code hoplock.azure-blob.check-on-start}, runs its conditional-write probe. Every failure is a
 * {@link HoplockConfigurationException} that names the {@code hoplock.azure-blob.*} property at fault, the cause as
 * the store reported it (account, container) and the fix. No message contains the connection string, the account key
 * or the SAS token: the store's builder keeps them out of its messages and redacts the SDK's.
 */
final class AzureBlobBackends {

    private static final Logger log = LoggerFactory.getLogger(AzureBlobBackends.class);

    static final String CONTAINER = "hoplock.azure-blob.container";
    private static final String SKIP_CHECK = " Or set hoplock.azure-blob.check-on-start=false to start anyway: each"
            + " elector runs the same probe before it campaigns, and the hoplock health contributor shows the cause.";

    private AzureBlobBackends() {
    }

    /**
     * @param settings  {@code hoplock.azure-blob}
     * @param container the application's unique {@link BlobContainerClient} bean, or null
     * @param service   the application's unique {@link BlobServiceClient} bean, or null
     */
    static AzureBlobBackend create(AzureBlobProperties settings, @Nullable BlobContainerClient container,
            @Nullable BlobServiceClient service) {
        boolean reuse = (container != null || service != null) && !settings.hasClientSettings();
        boolean reuseContainer = reuse && container != null
                && (settings.getContainer() == null || settings.getContainer().equals(container.getBlobContainerName()));
        if (!reuseContainer && settings.getContainer() == null) {
            throw new HoplockConfigurationException(CONTAINER,
                    "hoplock.backend is azure-blob, but hoplock.azure-blob.container is not set"
                            + (container == null ? "" : " and the application's BlobContainerClient is not used") + ".",
                    "Set hoplock.azure-blob.container to an existing container, with hoplock.azure-blob.connection-string"
                            + " (or endpoint with sas-token or default-credential); or define a BlobContainerClient"
                            + " bean of that container.");
        }
        if (!reuse && settings.getEndpoint() == null && settings.getConnectionString() == null) {
            throw new HoplockConfigurationException("hoplock.azure-blob.connection-string",
                    "hoplock.backend is azure-blob, but neither hoplock.azure-blob.connection-string nor"
                            + " hoplock.azure-blob.endpoint is set"
                            + (container == null && service == null
                                    ? ", and the application has no BlobServiceClient or BlobContainerClient bean."
                                    : ", and hoplock.azure-blob sets client settings, so the application's client is"
                                            + " not used."),
                    "Set hoplock.azure-blob.connection-string (from the portal's 'Access keys' page), or"
                            + " hoplock.azure-blob.endpoint with sas-token or default-credential=true; or define a"
                            + " BlobServiceClient bean (Spring Cloud Azure's) and leave those unset.");
        }
        if ((container != null || service != null) && !reuse) {
            log.info("hoplock: hoplock.azure-blob sets client settings, so hoplock creates its own Blob client instead"
                    + " of using the application's");
        }
        AzureBlobBackendBuilder builder = AzureBlobBackend.builder()
                .prefix(settings.getPrefix())
                .requestTimeout(settings.getRequestTimeout())
                .verifyOnBuild(settings.isCheckOnStart());
        String through;
        if (reuseContainer) {
            builder.containerClient(container);
            through = "through the application's BlobContainerClient bean";
        } else if (reuse && service != null) {
            builder.serviceClient(service).container(settings.getContainer());
            through = "through the application's BlobServiceClient bean";
        } else {
            builder.container(settings.getContainer()).endpoint(settings.getEndpoint())
                    .connectionString(settings.getConnectionString()).sasToken(settings.getSasToken())
                    .connectTimeout(settings.getConnectTimeout());
            if (settings.isDefaultCredential()) {
                builder.defaultAzureCredential();
            }
            through = "with its own client";
        }
        try {
            AzureBlobBackend backend = builder.build();
            log.info("hoplock: Azure Blob store {} ({})", backend.describe(), through);
            return backend;
        } catch (InvalidSettingException e) {
            throw refused(e);
        } catch (BackendException e) {
            throw checkFailed(e, settings, reuse);
        }
    }

    /** Builder setting (as {@link InvalidSettingException#setting()} names it) to the property that supplies it. */
    private static final Map<String, String> PROPERTIES = Map.of(
            "container", CONTAINER,
            "prefix", "hoplock.azure-blob.prefix",
            "endpoint", "hoplock.azure-blob.endpoint",
            "connectionString", "hoplock.azure-blob.connection-string",
            "sasToken", "hoplock.azure-blob.sas-token",
            "credential", "hoplock.azure-blob.sas-token",
            "defaultAzureCredential", "hoplock.azure-blob.default-credential",
            "requestTimeout", "hoplock.azure-blob.request-timeout",
            "connectTimeout", "hoplock.azure-blob.connect-timeout");

    /**
     * A refused setting reported under the property that supplies it, found from the exception's
     * {@link InvalidSettingException#setting() setting} field (never from its message).
     */
    private static HoplockConfigurationException refused(InvalidSettingException e) {
        String property = PROPERTIES.getOrDefault(e.setting(), "hoplock.azure-blob");
        String problem = e.rejectedValue() == null ? e.getMessage()
                : property + " (" + InvalidSettings.shown(e.rejectedValue()) + ") " + e.reason()
                        + (e.limit() == null ? "" : " (limit: " + InvalidSettings.shown(e.limit()) + ")");
        return new HoplockConfigurationException(property, "Invalid hoplock setting " + property + ": " + problem
                + ".", action(e.setting(), property), e);
    }

    private static String action(String setting, String property) {
        return switch (setting) {
            case "endpoint" -> "Set " + property + " to the account's blob endpoint, for example"
                    + " https://myaccount.blob.core.windows.net, without a query or credentials.";
            case "connectionString" -> "Set " + property + " to the connection string of the portal's 'Access keys'"
                    + " page, or use hoplock.azure-blob.endpoint with sas-token or default-credential instead.";
            case "credential", "sasToken" -> "Set exactly one of hoplock.azure-blob.sas-token and"
                    + " hoplock.azure-blob.default-credential=true with hoplock.azure-blob.endpoint, or use"
                    + " hoplock.azure-blob.connection-string alone.";
            case "defaultAzureCredential" -> "Add com.azure:azure-identity to the application, or use a SAS token or a"
                    + " connection string.";
            case "container" -> "Set " + property + " to a container name: 3 to 63 lowercase letters, digits and"
                    + " single '-'.";
            case "prefix" -> "Set " + property + " to letters, digits, '.', '_', '-' and '/', with no leading '/' and"
                    + " no segment ending in a dot, for example locks/.";
            case "requestTimeout", "connectTimeout" -> "Set " + property + " to a positive duration, for example 10s.";
            default -> "Fix " + property + ".";
        };
    }

    /** The probe's failure, with the property to change; the store's message names the account and the container. */
    private static HoplockConfigurationException checkFailed(BackendException e, AzureBlobProperties settings,
            boolean reuse) {
        String description = "The Azure Blob store failed its start-up check"
                + (reuse ? ", through the application's Blob client" : "") + ": " + e.getMessage() + ".";
        String credentials = settings.getConnectionString() != null ? "hoplock.azure-blob.connection-string"
                : settings.getSasToken() != null ? "hoplock.azure-blob.sas-token"
                : "hoplock.azure-blob.default-credential";
        return switch (e.kind()) {
            case UNREACHABLE, TRANSIENT -> new HoplockConfigurationException(reuse ? null
                    : settings.getEndpoint() != null ? "hoplock.azure-blob.endpoint"
                            : "hoplock.azure-blob.connection-string", description, (reuse ? "Check the application's"
                    + " Blob client's endpoint." : "Check the endpoint (hoplock.azure-blob.endpoint or the connection"
                    + " string's BlobEndpoint) and that the account answers there.") + SKIP_CHECK, e);
            case ACCESS_DENIED -> new HoplockConfigurationException(reuse ? null : credentials, description,
                    "Give " + (reuse ? "the application's client's credentials" : credentials) + " read, write"
                            + " (create) and delete on the container's blobs, as the Azure Blob store's page lists.",
                    e);
            case MISSING_CONTAINER -> new HoplockConfigurationException(CONTAINER, description, "Create the container"
                    + (settings.getContainer() == null ? "" : " " + settings.getContainer()) + ", or point " + CONTAINER
                    + " at an existing one: hoplock never creates it.", e);
            case CONDITIONAL_WRITES_NOT_SUPPORTED, MISCONFIGURED -> new HoplockConfigurationException(
                    reuse ? null : "hoplock.azure-blob.endpoint", description, "Point the store at Azure Blob Storage"
                            + " (or Azurite) itself, not at a proxy or a store that ignores If-Match and"
                            + " If-None-Match." + SKIP_CHECK, e);
        };
    }
}
