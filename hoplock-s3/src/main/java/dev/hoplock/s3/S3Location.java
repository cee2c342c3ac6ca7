package dev.hoplock.s3;

import dev.hoplock.core.InvalidSettingException;
import dev.hoplock.core.backend.LeaseKeys;
import org.jspecify.annotations.Nullable;

import java.net.URI;
import java.util.Objects;
import java.util.Optional;

/**
 * Where the lease objects live: one bucket, an optional key prefix, and the endpoint (when it is not AWS's own).
 * Maps lease keys to object keys and names them in messages. Holds no credentials, so everything it prints is safe
 * to log.
 */
final class S3Location {

    /** S3's own limit on an object key, in UTF-8 bytes. */
    static final int MAX_OBJECT_KEY_BYTES = 1024;

    private final String bucket;
    private final String prefix;
    private final Optional<URI> endpoint;
    private final String region;

    S3Location(String bucket, @Nullable String prefix, Optional<URI> endpoint, @Nullable String region) {
        this.bucket = validateBucket(bucket);
        this.prefix = validatePrefix(prefix);
        this.endpoint = Objects.requireNonNull(endpoint, "endpoint").map(S3Location::withoutSecrets);
        this.region = region == null ? "" : region;
    }

    String bucket() {
        return bucket;
    }

    String prefix() {
        return prefix;
    }

    /** The object key for a lease key: the prefix followed by the key, exactly. */
    String objectKey(String leaseKey) {
        return prefix + LeaseKeys.validate(leaseKey);
    }

    /** {@code s3://bucket/objectKey}. */
    String uri(String objectKey) {
        return "s3://" + bucket + "/" + objectKey;
    }

    /** The IAM resource of an object. */
    String arn(String objectKey) {
        return "arn:aws:s3:::" + bucket + "/" + objectKey;
    }

    /** The endpoint in a form fit for messages: the override URI, or AWS's endpoint for the region. */
    String endpointDescription() {
        return endpoint.map(URI::toString)
                .orElse(region.isEmpty() ? "the AWS S3 endpoint" : "the AWS S3 endpoint in " + region);
    }

    /** {@code s3://bucket/prefix}, followed by the endpoint when it is overridden. */
    String describe() {
        String base = "s3://" + bucket + "/" + prefix;
        return endpoint.map(uri -> base + " at " + uri).orElse(base);
    }

    private static String validateBucket(@Nullable String bucket) {
        if (bucket == null || bucket.isBlank()) {
            throw new InvalidSettingException("bucket", bucket, null, "must not be empty",
                    "the S3 bucket name must not be empty");
        }
        if (bucket.contains("/") || !bucket.equals(bucket.strip())) {
            throw new InvalidSettingException("bucket", bucket, null,
                    "is not a bucket name: give the bucket alone, and any path inside it as the prefix",
                    "'" + bucket + "' is not a bucket name: give the bucket alone, and any path inside it as the prefix");
        }
        return bucket;
    }

    private static String validatePrefix(@Nullable String prefix) {
        if (prefix == null) {
            return "";
        }
        if (prefix.startsWith("/")) {
            throw new InvalidSettingException("prefix", prefix, null,
                    "must not start with '/' (S3 keys have no leading slash; use for example 'locks/')",
                    "the key prefix '" + prefix + "' must not start with '/'"
                            + " (S3 keys have no leading slash; use for example 'locks/')");
        }
        if (prefix.chars().anyMatch(Character::isISOControl)) {
            throw new InvalidSettingException("prefix", null, null, "must not contain control characters",
                    "the key prefix must not contain control characters");
        }
        if (prefix.getBytes(java.nio.charset.StandardCharsets.UTF_8).length + LeaseKeys.MAX_LENGTH
                > MAX_OBJECT_KEY_BYTES) {
            throw new InvalidSettingException("prefix", prefix, MAX_OBJECT_KEY_BYTES - LeaseKeys.MAX_LENGTH,
                    "is too long: prefix plus a lease key must fit S3's " + MAX_OBJECT_KEY_BYTES + "-byte key limit",
                    "the key prefix is too long: prefix plus a lease key of up to " + LeaseKeys.MAX_LENGTH
                            + " characters must fit S3's " + MAX_OBJECT_KEY_BYTES + "-byte key limit");
        }
        return prefix;
    }

    /** Drops user info, query and fragment, so that a URI with embedded credentials never reaches a message. */
    private static URI withoutSecrets(URI uri) {
        if (uri.getHost() == null) {
            return URI.create(uri.getScheme() == null ? "endpoint" : uri.getScheme() + "://endpoint");
        }
        String port = uri.getPort() < 0 ? "" : ":" + uri.getPort();
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        return URI.create(uri.getScheme() + "://" + uri.getHost() + port + path);
    }
}
