package dev.hoplock.spring.autoconfigure.dynamodb;

import dev.hoplock.core.InvalidSettingException;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.dynamodb.DynamoDbBackend;
import dev.hoplock.dynamodb.DynamoDbBackendBuilder;
import dev.hoplock.dynamodb.TableCreation;
import dev.hoplock.spring.HoplockConfigurationException;
import dev.hoplock.spring.autoconfigure.InvalidSettings;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.util.Map;

/**
 * Builds the {@link DynamoDbBackend} from {@code hoplock.dynamodb.*} (over the application's client, or one of its
 * own) and, with {@code hoplock.dynamodb.check-on-start}, runs its start-up check. Every failure is a
 * {@link HoplockConfigurationException} that names the {@code hoplock.dynamodb.*} property at fault, the cause as the
 * store reported it (table, region, endpoint) and the fix. No message contains the secret key or the session token:
 * the store's builder keeps them out of its messages and redacts the SDK's.
 */
final class DynamoDbBackends {

    private static final Logger log = LoggerFactory.getLogger(DynamoDbBackends.class);

    static final String TABLE = "hoplock.dynamodb.table";
    private static final String SKIP_CHECK = " Or set hoplock.dynamodb.check-on-start=false to start anyway: each"
            + " elector runs the same check before it campaigns, and the hoplock health contributor shows the cause.";

    private DynamoDbBackends() {
    }

    /**
     * @param settings   {@code hoplock.dynamodb}
     * @param userClient the application's unique {@link DynamoDbClient} bean, or null
     */
    static DynamoDbBackend create(DynamoDbProperties settings, @Nullable DynamoDbClient userClient) {
        if (settings.getTable() == null || settings.getTable().isBlank()) {
            throw new HoplockConfigurationException(TABLE,
                    "hoplock.backend is dynamodb, but hoplock.dynamodb.table is not set.",
                    "Set hoplock.dynamodb.table to the table that holds the leases (partition key lease_key of type"
                            + " S, no sort key); with hoplock.dynamodb.create-table=true hoplock creates it.");
        }
        boolean access = settings.getAccessKey() != null;
        boolean secret = settings.getSecretKey() != null;
        if (access != secret) {
            String missing = access ? "hoplock.dynamodb.secret-key" : "hoplock.dynamodb.access-key";
            throw new HoplockConfigurationException(missing,
                    "Only one of hoplock.dynamodb.access-key and hoplock.dynamodb.secret-key is set; " + missing
                            + " is missing.",
                    "Set both hoplock.dynamodb.access-key and hoplock.dynamodb.secret-key, or neither to use the AWS"
                            + " SDK's default credentials chain.");
        }
        if (settings.getSessionToken() != null && !access) {
            throw new HoplockConfigurationException("hoplock.dynamodb.session-token",
                    "hoplock.dynamodb.session-token is set without hoplock.dynamodb.access-key and secret-key.",
                    "Set all three for temporary credentials, or none.");
        }
        boolean reuse = userClient != null && !settings.hasClientSettings();
        if (userClient != null && !reuse) {
            log.info("hoplock: hoplock.dynamodb sets client settings, so hoplock creates its own DynamoDB client"
                    + " instead of using the application's DynamoDbClient bean");
        }
        DynamoDbBackendBuilder builder = DynamoDbBackend.builder()
                .table(settings.getTable())
                .keyAttribute(settings.getKeyAttribute())
                .prefix(settings.getPrefix())
                .tableCreation(settings.isCreateTable() ? TableCreation.CREATE_IF_MISSING : TableCreation.NEVER)
                .requestTimeout(settings.getRequestTimeout())
                .verifyOnBuild(settings.isCheckOnStart());
        try {
            if (reuse) {
                builder.client(userClient);
            } else {
                builder.region(settings.getRegion()).endpoint(settings.getEndpoint())
                        .connectTimeout(settings.getConnectTimeout());
                // Both keys or neither: checked above.
                String accessKey = settings.getAccessKey();
                String secretKey = settings.getSecretKey();
                if (access && accessKey != null && secretKey != null && settings.getSessionToken() != null) {
                    builder.credentials(accessKey, secretKey, settings.getSessionToken());
                } else if (access && accessKey != null && secretKey != null) {
                    builder.credentials(accessKey, secretKey);
                }
            }
            DynamoDbBackend backend = builder.build();
            log.info("hoplock: DynamoDB store {} ({})", backend.describe(),
                    reuse ? "through the application's DynamoDbClient bean" : "with its own DynamoDB client");
            return backend;
        } catch (InvalidSettingException e) {
            throw refused(e);
        } catch (BackendException e) {
            throw checkFailed(e, settings, reuse);
        }
    }

    /** Builder setting (as {@link InvalidSettingException#setting()} names it) to the property that supplies it. */
    private static final Map<String, String> PROPERTIES = Map.of(
            "table", TABLE,
            "keyAttribute", "hoplock.dynamodb.key-attribute",
            "prefix", "hoplock.dynamodb.prefix",
            "region", "hoplock.dynamodb.region",
            "endpoint", "hoplock.dynamodb.endpoint",
            "credentials", "hoplock.dynamodb.access-key",
            "requestTimeout", "hoplock.dynamodb.request-timeout",
            "connectTimeout", "hoplock.dynamodb.connect-timeout",
            "tableCreation", "hoplock.dynamodb.create-table");

    /**
     * A refused setting reported under the property that supplies it, found from the exception's
     * {@link InvalidSettingException#setting() setting} field (never from its message).
     */
    private static HoplockConfigurationException refused(InvalidSettingException e) {
        String property = PROPERTIES.getOrDefault(e.setting(), "hoplock.dynamodb");
        String problem = e.rejectedValue() == null ? e.getMessage()
                : property + " (" + InvalidSettings.shown(e.rejectedValue()) + ") " + e.reason()
                        + (e.limit() == null ? "" : " (limit: " + InvalidSettings.shown(e.limit()) + ")");
        return new HoplockConfigurationException(property, "Invalid hoplock setting " + property + ": " + problem
                + ".", action(e.setting(), property), e);
    }

    private static String action(String setting, String property) {
        return switch (setting) {
            case "endpoint" -> "Set " + property + " to an http:// or https:// URL without credentials, for example"
                    + " http://127.0.0.1:8000.";
            case "region" -> "Set " + property + " to the table's region (for example eu-west-1), or AWS_REGION in"
                    + " the environment.";
            case "requestTimeout", "connectTimeout" -> "Set " + property + " to a positive duration, for example 10s.";
            case "table" -> "Set " + property + " to a DynamoDB table name: 3 to 255 letters, digits, '_', '-' or"
                    + " '.'.";
            default -> "Fix " + property + ".";
        };
    }

    /** The start-up check's failure, with the property to change; the store's message names the table and the fix. */
    private static HoplockConfigurationException checkFailed(BackendException e, DynamoDbProperties settings,
            boolean reuse) {
        String description = "The DynamoDB store failed its start-up check"
                + (reuse ? ", through the application's DynamoDbClient" : "") + ": " + e.getMessage() + ".";
        return switch (e.kind()) {
            case UNREACHABLE, TRANSIENT -> new HoplockConfigurationException(reuse ? null
                    : "hoplock.dynamodb.endpoint", description, (reuse ? "Check the application's DynamoDbClient"
                    + " (its region and endpoint)." : "Check hoplock.dynamodb.region and hoplock.dynamodb.endpoint,"
                    + " and that the service answers there.") + SKIP_CHECK, e);
            case ACCESS_DENIED -> new HoplockConfigurationException(reuse ? null : "hoplock.dynamodb.access-key",
                    description, "Give the credentials (" + (reuse ? "the application's client's"
                            : "hoplock.dynamodb.access-key and secret-key, or the SDK's chain") + ") the permissions"
                            + " listed on the DynamoDB store's page on table " + settings.getTable() + ".", e);
            case MISSING_CONTAINER -> new HoplockConfigurationException("hoplock.dynamodb.create-table", description,
                    "Create the table " + settings.getTable() + " (see the DynamoDB store's page), or set"
                            + " hoplock.dynamodb.create-table=true so that hoplock creates it.", e);
            case CONDITIONAL_WRITES_NOT_SUPPORTED, MISCONFIGURED -> new HoplockConfigurationException(TABLE,
                    description, "Point " + TABLE + " at a table of one region with partition key "
                            + settings.getKeyAttribute() + " (S) and no sort key, or fix the table as the message"
                            + " says." + SKIP_CHECK, e);
        };
    }
}
