package dev.hoplock.spring.autoconfigure;

import dev.hoplock.core.InvalidSettingException;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.s3.S3Backend;
import dev.hoplock.s3.S3BackendBuilder;
import dev.hoplock.spring.HoplockConfigurationException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.s3.S3Client;

import java.util.Locale;
import java.util.Map;

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
    static S3Backend create(HoplockProperties.S3 settings, boolean probe, @Nullable S3Client userClient) {
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
        S3BackendBuilder builder = S3Backend.builder()
                .bucket(settings.getBucket())
                .prefix(settings.getPrefix())
                .requestTimeout(settings.getApiCallTimeout())
                .verifyConditionalWrites(probe)
                .verifyOnBuild(false);
        boolean reuse = userClient != null && !hasClientSettings(settings);
        if (reuse) {
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
                builder.endpoint(endpoint(settings.getEndpoint()));
            }
            if (access && settings.getSessionToken() != null) {
                builder.credentials(settings.getAccessKey(), settings.getSecretKey(), settings.getSessionToken());
            } else if (access) {
                builder.credentials(settings.getAccessKey(), settings.getSecretKey());
            }
        }
        S3Backend backend = build(builder);
        log.info("hoplock: S3 store {} ({})", backend.describe(),
                reuse ? "through the application's S3Client bean" : "with its own S3 client");
        return backend;
    }

    private static boolean hasClientSettings(HoplockProperties.S3 settings) {
        return settings.hasClientSettings()
                || !settings.getConnectTimeout().equals(S3BackendBuilder.DEFAULT_CONNECT_TIMEOUT);
    }

    private static java.net.URI endpoint(String endpoint) {
        try {
            return java.net.URI.create(endpoint.trim());
        } catch (IllegalArgumentException e) {
            throw new HoplockConfigurationException("hoplock.s3.endpoint",
                    "hoplock.s3.endpoint is not a valid URL: " + e.getMessage() + ".",
                    "Set hoplock.s3.endpoint to an http:// or https:// URL, for example http://127.0.0.1:9000.");
        }
    }

    /** S3 builder setting (as {@link InvalidSettingException#setting()} names it) to the property that supplies it. */
    private static final Map<String, String> S3_PROPERTIES = Map.of(
            "bucket", "hoplock.s3.bucket",
            "prefix", "hoplock.s3.prefix",
            "region", "hoplock.s3.region",
            "endpoint", "hoplock.s3.endpoint",
            "requestTimeout", "hoplock.s3.api-call-timeout",
            "connectTimeout", "hoplock.s3.connect-timeout");

    private static S3Backend build(S3BackendBuilder builder) {
        try {
            return builder.build();
        } catch (BackendException e) {
            boolean region = e.getMessage().toLowerCase(Locale.ROOT).contains("region");
            String property = region ? "hoplock.s3.region" : "hoplock.s3";
            return fail(property, e.getMessage(), region
                    ? "Set hoplock.s3.region (for example eu-west-1), or AWS_REGION in the environment."
                    : "Check the hoplock.s3.* settings.", e);
        } catch (InvalidSettingException e) {
            String property = S3_PROPERTIES.getOrDefault(e.setting(), "hoplock.s3");
            return fail(property, e.getMessage(), "Fix " + property + ".", e);
        } catch (IllegalArgumentException | IllegalStateException e) {
            // Not yet structured: hoplock-s3's builder still throws plain exceptions. This fallback goes once it
            // throws InvalidSettingException (handled above, from its setting field).
            String message = String.valueOf(e.getMessage());
            String lower = message.toLowerCase(Locale.ROOT);
            String property = lower.contains("endpoint") ? "hoplock.s3.endpoint"
                    : lower.contains("requesttimeout") ? "hoplock.s3.api-call-timeout"
                    : lower.contains("connecttimeout") ? "hoplock.s3.connect-timeout"
                    : lower.contains("bucket") ? "hoplock.s3.bucket"
                    : lower.contains("region") ? "hoplock.s3.region"
                    : "hoplock.s3";
            return fail(property, message, "Fix " + property + ".", e);
        }
    }

    private static S3Backend fail(String property, String message, String action, Exception cause) {
        throw new HoplockConfigurationException(property,
                "Cannot configure the S3 store (" + property + "): " + message + ".", action, cause);
    }
}
