package dev.hoplock.spring.autoconfigure.s3;

import dev.hoplock.core.InvalidSettingException;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.s3.S3Backend;
import dev.hoplock.s3.S3BackendBuilder;
import dev.hoplock.spring.HoplockConfigurationException;
import dev.hoplock.spring.autoconfigure.InvalidSettings;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.s3.S3Client;

import java.util.Map;
import java.util.Objects;

/**
 * Builds the {@link S3Backend} from {@code hoplock.s3.*}, without contacting the store: with the probe on, its first
 * {@link S3Backend#verify()} runs it (each elector calls that before it campaigns); with it off, nothing is probed. Every failure names the
 * {@code hoplock.s3.*} property; no message contains a secret.
 */
final class S3Backends {

    private static final Logger log = LoggerFactory.getLogger(S3Backends.class);

    private S3Backends() {
    }

    /**
     * @param settings   {@code hoplock.s3}
     * @param probe      {@code hoplock.probe}: whether the store's verification runs the conditional-write probe
     * @param userClient the application's unique {@link S3Client} bean, or null
     */
    static S3Backend create(S3Properties settings, boolean probe, @Nullable S3Client userClient) {
        if (settings.getBucket() == null || settings.getBucket().isBlank()) {
            throw new HoplockConfigurationException("hoplock.s3.bucket",
                    "hoplock.backend is s3, but hoplock.s3.bucket is not set.",
                    "Set hoplock.s3.bucket to the name of an existing bucket.");
        }
        boolean access = settings.getAccessKey() != null;
        boolean secret = settings.getSecretKey() != null;
        if (access != secret) {
            String missing = access ? "hoplock.s3.secret-key" : "hoplock.s3.access-key";
            throw new HoplockConfigurationException(missing,
                    "Only one of hoplock.s3.access-key and hoplock.s3.secret-key is set; " + missing + " is missing.",
                    "Set both hoplock.s3.access-key and hoplock.s3.secret-key, or neither to use the AWS SDK's default"
                            + " credentials chain.");
        }
        if (settings.getSessionToken() != null && !access) {
            throw new HoplockConfigurationException("hoplock.s3.session-token",
                    "hoplock.s3.session-token is set without hoplock.s3.access-key and hoplock.s3.secret-key.",
                    "Set all three for temporary credentials, or none.");
        }
        try {
            return build(settings, probe, userClient, access);
        } catch (InvalidSettingException e) {
            throw refused(e);
        } catch (BackendException e) {
            throw new HoplockConfigurationException("hoplock.s3",
                    "Cannot configure the S3 store (hoplock.s3): " + e.getMessage() + ".",
                    "Check the hoplock.s3.* settings.", e);
        }
    }

    private static S3Backend build(S3Properties settings, boolean probe, @Nullable S3Client userClient,
            boolean access) throws BackendException {
        S3BackendBuilder builder = S3Backend.builder()
                .bucket(Objects.requireNonNull(settings.getBucket(), "checked before the build"))
                .prefix(settings.getPrefix())
                .requestTimeout(settings.getApiCallTimeout())
                .verifyConditionalWrites(probe)
                .verifyOnBuild(false);
        boolean reuse = userClient != null && !hasClientSettings(settings);
        if (reuse && userClient != null) {
            builder.client(userClient);
        } else {
            if (userClient != null) {
                log.info("hoplock: hoplock.s3 sets client settings, so hoplock creates its own S3 client instead of"
                        + " using the application's S3Client bean");
            }
            builder.region(settings.getRegion())
                    .pathStyle(settings.isPathStyle())
                    .connectTimeout(settings.getConnectTimeout());
            if (settings.getEndpoint() != null) {
                builder.endpoint(settings.getEndpoint());
            }
            // Both keys or neither: checked above.
            String accessKey = settings.getAccessKey();
            String secretKey = settings.getSecretKey();
            if (access && accessKey != null && secretKey != null && settings.getSessionToken() != null) {
                builder.credentials(accessKey, secretKey, settings.getSessionToken());
            } else if (access && accessKey != null && secretKey != null) {
                builder.credentials(accessKey, secretKey);
            }
        }
        S3Backend backend = builder.build();
        log.info("hoplock: S3 store {} ({})", backend.describe(),
                reuse ? "through the application's S3Client bean" : "with its own S3 client");
        return backend;
    }

    private static boolean hasClientSettings(S3Properties settings) {
        return settings.hasClientSettings()
                || !settings.getConnectTimeout().equals(S3BackendBuilder.DEFAULT_CONNECT_TIMEOUT);
    }

    /** S3 builder setting (as {@link InvalidSettingException#setting()} names it) to the property that supplies it. */
    private static final Map<String, String> S3_PROPERTIES = Map.of(
            "bucket", "hoplock.s3.bucket",
            "prefix", "hoplock.s3.prefix",
            "region", "hoplock.s3.region",
            "endpoint", "hoplock.s3.endpoint",
            "requestTimeout", "hoplock.s3.api-call-timeout",
            "connectTimeout", "hoplock.s3.connect-timeout");

    /**
     * A refused setting reported under the property that supplies it, found from the exception's
     * {@link InvalidSettingException#setting() setting} field (never from its message).
     */
    private static HoplockConfigurationException refused(InvalidSettingException e) {
        String property = S3_PROPERTIES.getOrDefault(e.setting(), "hoplock.s3");
        String problem = e.rejectedValue() == null ? e.getMessage()
                : property + " (" + InvalidSettings.shown(e.rejectedValue()) + ") " + e.reason()
                        + (e.limit() == null ? "" : " (limit: " + InvalidSettings.shown(e.limit()) + ")");
        return new HoplockConfigurationException(property, "Invalid hoplock setting " + property + ": " + problem + ".",
                action(e.setting(), property), e);
    }

    private static String action(String setting, String property) {
        return switch (setting) {
            case "endpoint" -> "Set " + property + " to an http:// or https:// URL without credentials, for example"
                    + " http://127.0.0.1:9000.";
            case "region" -> "Set " + property + " to the bucket's region (for example eu-west-1), or AWS_REGION in"
                    + " the environment.";
            case "requestTimeout", "connectTimeout" -> "Set " + property + " to a positive duration, for example 10s.";
            case "bucket" -> "Set " + property + " to the name of an existing bucket, without a path.";
            case "prefix" -> "Set " + property + " to a key prefix without a leading '/', for example locks/.";
            default -> "Fix " + property + ".";
        };
    }
}
