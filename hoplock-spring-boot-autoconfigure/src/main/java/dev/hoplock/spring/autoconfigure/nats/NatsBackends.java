package dev.hoplock.spring.autoconfigure.nats;

import dev.hoplock.core.InvalidSettingException;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.nats.NatsBackend;
import dev.hoplock.nats.NatsBackendBuilder;
import dev.hoplock.spring.HoplockConfigurationException;
import dev.hoplock.spring.autoconfigure.InvalidSettings;
import io.nats.client.Connection;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Builds the {@link NatsBackend} from {@code hoplock.nats.*} (over the application's connection, or one of its own)
 * and, with {@code hoplock.nats.check-on-start}, runs its start-up check. Every failure is a
 * {@link HoplockConfigurationException} that names the {@code hoplock.nats.*} property at fault (none when the
 * application's connection is used and the fault is where it points), the cause as the store reported it and the fix.
 * No message contains the password or the token: the store's builder hands them to the client only, and its messages
 * never quote them.
 */
final class NatsBackends {

    private static final Logger log = LoggerFactory.getLogger(NatsBackends.class);

    static final String URL = "hoplock.nats.url";

    private NatsBackends() {
    }

    /**
     * @param settings    {@code hoplock.nats}
     * @param application the application's unique {@link Connection} bean, or null
     */
    static NatsBackend create(NatsProperties settings, @Nullable Connection application) {
        checkCredentials(settings);
        boolean reuse = application != null && !settings.hasConnectionSettings();
        if (!reuse && settings.getUrl() == null) {
            throw new HoplockConfigurationException(URL, application == null
                    ? "hoplock.backend is nats, but hoplock.nats.url is not set and the application has no"
                            + " io.nats.client.Connection bean to use."
                    : "hoplock.nats sets credentials or a connect timeout but no url: they are for the connection"
                            + " hoplock opens to hoplock.nats.url, not for the application's Connection.",
                    "Set hoplock.nats.url to the servers, for example nats://nats-1:4222,nats://nats-2:4222 (with"
                            + " hoplock.nats.username and password, token or credentials-file if they need them); or"
                            + " define an io.nats.client.Connection bean and leave hoplock.nats's connection settings"
                            + " unset, so that hoplock uses it.");
        }
        if (application != null && !reuse) {
            log.info("hoplock: hoplock.nats sets a connection setting, so hoplock opens its own connection instead of"
                    + " using the application's io.nats.client.Connection bean");
        }
        NatsBackendBuilder builder = NatsBackend.builder()
                .bucket(settings.getBucket())
                .keyPrefix(settings.getKeyPrefix())
                .createBucket(settings.isCreateBucket())
                .requestTimeout(settings.getRequestTimeout())
                .verify(settings.isCheckOnStart());
        if (settings.getHistory() != null) {
            builder.history(settings.getHistory());
        }
        if (settings.getReplicas() != null) {
            builder.replicas(settings.getReplicas());
        }
        if (reuse && application != null) {
            builder.connection(application);
        } else {
            builder.servers(servers(settings.getUrl())).connectTimeout(settings.getConnectTimeout());
            if (settings.getUsername() != null) {
                builder.userInfo(settings.getUsername(), settings.getPassword());
            } else if (settings.getToken() != null) {
                builder.token(settings.getToken());
            } else if (settings.getCredentialsFile() != null) {
                builder.credentialsFile(settings.getCredentialsFile());
            }
        }
        NatsBackend backend = build(builder, settings, reuse);
        log.info("hoplock: NATS store {} ({})", backend.describe(),
                reuse ? "over the application's io.nats.client.Connection bean" : "with its own connection");
        return backend;
    }

    private static List<String> servers(@Nullable String url) {
        return Arrays.stream(String.valueOf(url).split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
    }

    private static void checkCredentials(NatsProperties settings) {
        boolean user = settings.getUsername() != null;
        boolean password = settings.getPassword() != null;
        if (user != password) {
            String missing = user ? "hoplock.nats.password" : "hoplock.nats.username";
            throw new HoplockConfigurationException(missing,
                    "Only one of hoplock.nats.username and hoplock.nats.password is set; " + missing + " is missing.",
                    "Set both for a user, or neither (then a token, a credentials file, or no authentication).");
        }
        int ways = (user ? 1 : 0) + (settings.getToken() != null ? 1 : 0)
                + (settings.getCredentialsFile() != null ? 1 : 0);
        if (ways > 1) {
            throw new HoplockConfigurationException(settings.getToken() != null ? "hoplock.nats.token"
                    : "hoplock.nats.credentials-file",
                    "More than one way to authenticate is set: hoplock.nats.username and password,"
                            + " hoplock.nats.token, hoplock.nats.credentials-file.",
                    "Keep one of them.");
        }
    }

    /** Builder setting (as {@link InvalidSettingException#setting()} names it) to the property that supplies it. */
    private static final Map<String, String> PROPERTIES = Map.of(
            "servers", URL,
            "bucket", "hoplock.nats.bucket",
            "keyPrefix", "hoplock.nats.key-prefix",
            "history", "hoplock.nats.history",
            "replicas", "hoplock.nats.replicas",
            "requestTimeout", "hoplock.nats.request-timeout",
            "connectTimeout", "hoplock.nats.connect-timeout",
            "credentialsFile", "hoplock.nats.credentials-file");

    private static NatsBackend build(NatsBackendBuilder builder, NatsProperties settings, boolean reuse) {
        try {
            return builder.build();
        } catch (InvalidSettingException e) {
            String property = PROPERTIES.getOrDefault(e.setting(), "hoplock.nats");
            String problem = e.rejectedValue() == null ? e.getMessage()
                    : property + " (" + InvalidSettings.shown(e.rejectedValue()) + ") " + e.reason()
                            + (e.limit() == null ? "" : " (limit: " + InvalidSettings.shown(e.limit()) + ")");
            throw new HoplockConfigurationException(property, "Invalid hoplock setting " + property + ": " + problem
                    + ".", action(e.setting(), property), e);
        } catch (BackendException e) {
            throw checkFailed(e, settings, reuse);
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new HoplockConfigurationException("hoplock.nats",
                    "Cannot configure the NATS store: " + e.getMessage() + ".", "Fix hoplock.nats.", e);
        }
    }

    private static String action(String setting, String property) {
        return switch (setting) {
            case "servers" -> "Set " + property + " to nats://host:4222 (or tls://, ws://, wss://) URLs, comma-separated,"
                    + " without credentials: those go in hoplock.nats.username and password, token or"
                    + " credentials-file.";
            case "bucket" -> "Set " + property + " to a bucket name of letters, digits, '_' and '-'.";
            case "keyPrefix" -> "Set " + property + " to subject tokens of letters, digits, '_', '-' and '=', separated"
                    + " by '.', or leave it unset.";
            case "history" -> "Set " + property + " to 1 to 64, or leave it unset.";
            case "replicas" -> "Set " + property + " to 1 to 5, or leave it unset.";
            case "requestTimeout", "connectTimeout" -> "Set " + property + " to a positive duration, for example 10s.";
            case "credentialsFile" -> "Set " + property + " to a readable .creds file.";
            default -> "Fix " + property + ".";
        };
    }

    /** The connection's or the start-up check's failure, with the property to change. */
    private static HoplockConfigurationException checkFailed(BackendException e, NatsProperties settings,
            boolean reuse) {
        String description = "The NATS store failed its start-up check"
                + (reuse ? ", over the application's io.nats.client.Connection" : "") + ": " + e.getMessage() + ".";
        return switch (e.kind()) {
            case UNREACHABLE, TRANSIENT -> new HoplockConfigurationException(reuse ? null : URL, description,
                    reuse ? "Check the application's NATS connection and the servers it points at."
                            : "Start the servers, or point hoplock.nats.url at them (nats://host:4222). The"
                                    + " connection is opened at start even with hoplock.nats.check-on-start=false.",
                    e);
            case ACCESS_DENIED -> new HoplockConfigurationException(reuse ? null : credentialProperty(settings),
                    description, "Set hoplock.nats.username and password, token or credentials-file to credentials"
                            + " the servers accept, with the permissions listed on the NATS store's page.", e);
            case MISSING_CONTAINER -> new HoplockConfigurationException("hoplock.nats.create-bucket", description,
                    "Create the bucket " + settings.getBucket() + " as the NATS store's page shows, or set"
                            + " hoplock.nats.create-bucket=true so that hoplock creates it.", e);
            case CONDITIONAL_WRITES_NOT_SUPPORTED, MISCONFIGURED -> new HoplockConfigurationException(
                    "hoplock.nats.bucket", description, "Change the bucket or the servers as the message says"
                            + " (hoplock.nats.bucket, hoplock.nats.history, hoplock.nats.replicas), or set"
                            + " hoplock.nats.check-on-start=false to start anyway: each elector then runs the check"
                            + " before it campaigns, and health shows the cause.", e);
        };
    }

    private static String credentialProperty(NatsProperties settings) {
        if (settings.getToken() != null) {
            return "hoplock.nats.token";
        }
        return settings.getCredentialsFile() != null ? "hoplock.nats.credentials-file" : "hoplock.nats.username";
    }
}
