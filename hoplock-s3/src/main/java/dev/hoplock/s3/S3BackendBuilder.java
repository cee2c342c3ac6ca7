package dev.hoplock.s3;

import dev.hoplock.core.InvalidSettingException;
import dev.hoplock.core.backend.BackendException;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Optional;

/**
 * Configures an {@link S3Backend}: the bucket and key prefix, and either the settings of an S3 client that the
 * backend creates and owns (region, endpoint, path-style access, credentials, timeouts) or an {@link S3Client} the
 * application already has, which the backend then uses as it is and never closes.
 *
 * <p>Guarantees: {@link #build()} checks every setting before it contacts the store and, unless
 * {@link #verifyConditionalWrites(boolean) switched off}, runs {@link S3Backend#verify()} (the
 * {@link ConditionalWriteProbe}) so that a store without a conditional create and swap, on which no elector can be
 * safe, is refused at start; what else the store lacks (a conditional DELETE) is in the backend's
 * {@link S3Backend#verify() capabilities}, for each consumer to check. Credentials given here are handed to the SDK only; they
 * never appear in messages or {@code toString()}. A bad setting is refused with an {@link InvalidSettingException}
 * whose {@link InvalidSettingException#setting() setting} is the name of this builder's method for it
 * ({@code bucket}, {@code prefix}, {@code region}, {@code endpoint}, {@code requestTimeout}, {@code connectTimeout},
 * {@code client}), so that a configuration layer can name its own property without reading the message. Not
 * thread-safe; use it from one thread, then discard it.
 */
public final class S3BackendBuilder {

    /**
     * {@link #DEFAULT_REQUEST_TIMEOUT} in seconds, a compile-time constant: a configuration layer that has this module
     * only as an optional dependency takes its default from here without loading this class.
     */
    public static final long DEFAULT_REQUEST_TIMEOUT_SECONDS = 10;
    /** {@link #DEFAULT_CONNECT_TIMEOUT} in seconds, a compile-time constant (see above). */
    public static final long DEFAULT_CONNECT_TIMEOUT_SECONDS = 3;
    /** The default cap on one backend call, SDK retries included. */
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(DEFAULT_REQUEST_TIMEOUT_SECONDS);
    /** The default TCP connect timeout of a client the builder creates. */
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(DEFAULT_CONNECT_TIMEOUT_SECONDS);
    /** The region used with an endpoint override when none is given (S3-compatible stores mostly ignore it). */
    public static final String DEFAULT_REGION_WITH_ENDPOINT = "us-east-1";

    private static final String ENDPOINT_REASON = "must be an http:// or https:// URL with a host";
    private static final String ENDPOINT_RULE =
            "the S3 endpoint " + ENDPOINT_REASON + ", for example http://127.0.0.1:9000";
    private static final String REGION_REASON =
            "must be a region name of letters, digits and '-' (for example eu-west-1), as S3 puts it in host names";
    /** A DNS host name, which is what the SDK accepts as a region: labels of letters, digits and inner '-'. */
    private static final java.util.regex.Pattern REGION =
            java.util.regex.Pattern.compile("[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*");

    private @Nullable String bucket;
    private String prefix = "";
    private @Nullable String region;
    private @Nullable URI endpoint;
    private boolean pathStyle;
    private @Nullable AwsCredentialsProvider credentials;
    private Duration requestTimeout = DEFAULT_REQUEST_TIMEOUT;
    private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
    private boolean verifyConditionalWrites = true;
    private boolean verifyOnBuild = true;
    private @Nullable IfMatchForm ifMatchForm;
    private @Nullable S3Client client;

    S3BackendBuilder() {
    }

    /** The bucket that holds the lease objects (required; it must exist). */
    public S3BackendBuilder bucket(String bucket) {
        this.bucket = bucket;
        return this;
    }

    /**
     * Put before every lease key to form the object key, exactly as given: with prefix {@code locks/} the lease key
     * {@code billing/leader} lives at {@code locks/billing/leader}. Default: none.
     */
    public S3BackendBuilder prefix(@Nullable String prefix) {
        this.prefix = prefix == null ? "" : prefix;
        return this;
    }

    /**
     * The region, for example {@code eu-west-1} ({@code auto} for Cloudflare R2). Default: the SDK's region
     * provider chain ({@code AWS_REGION}, profile, instance metadata), or {@value #DEFAULT_REGION_WITH_ENDPOINT}
     * when an {@linkplain #endpoint(URI) endpoint} is set.
     */
    public S3BackendBuilder region(@Nullable String region) {
        this.region = region;
        return this;
    }

    /** The endpoint of an S3-compatible store, for example {@code http://127.0.0.1:9000}. Default: AWS S3. */
    public S3BackendBuilder endpoint(@Nullable URI endpoint) {
        this.endpoint = endpoint;
        return this;
    }

    /** See {@link #endpoint(URI)}. */
    public S3BackendBuilder endpoint(@Nullable String endpoint) {
        if (endpoint == null || endpoint.isBlank()) {
            return endpoint((URI) null);
        }
        String shown = withoutUserInfo(endpoint.strip());
        try {
            return endpoint(new URI(endpoint.strip()));
        } catch (URISyntaxException e) {
            InvalidSettingException refused = new InvalidSettingException("endpoint", shown, null,
                    ENDPOINT_REASON + "; this is not a URL", ENDPOINT_RULE + "; '" + shown + "' is not a URL");
            refused.initCause(e);
            throw refused;
        }
    }

    /** Addresses the bucket in the path ({@code host/bucket/key}) instead of the host name. Needed by MinIO. */
    public S3BackendBuilder pathStyle(boolean pathStyle) {
        this.pathStyle = pathStyle;
        return this;
    }

    /** Where credentials come from. Default: the SDK's default credentials provider chain. */
    public S3BackendBuilder credentials(AwsCredentialsProvider credentials) {
        this.credentials = credentials;
        return this;
    }

    /** Fixed access keys, for stores such as MinIO; prefer the default provider chain on AWS. */
    public S3BackendBuilder credentials(String accessKeyId, String secretAccessKey) {
        return credentials(StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKeyId, secretAccessKey)));
    }

    /** Fixed temporary credentials with a session token. */
    public S3BackendBuilder credentials(String accessKeyId, String secretAccessKey, String sessionToken) {
        return credentials(StaticCredentialsProvider.create(
                AwsSessionCredentials.create(accessKeyId, secretAccessKey, sessionToken)));
    }

    /**
     * The longest one backend call may take, SDK retries included (default 10 s). The elector's own, usually
     * shorter, budget for a call (the lease time left) applies within this cap.
     */
    public S3BackendBuilder requestTimeout(Duration requestTimeout) {
        this.requestTimeout = requestTimeout;
        return this;
    }

    /** The TCP connect timeout of the client the builder creates (default 3 s). */
    public S3BackendBuilder connectTimeout(Duration connectTimeout) {
        this.connectTimeout = connectTimeout;
        return this;
    }

    /**
     * Whether the backend probes its store with the {@link ConditionalWriteProbe} (default true): {@link #build()}
     * then runs {@link S3Backend#verify()} and refuses a store without a conditional create and swap. Turned off,
     * nothing is sent at build and {@link S3Backend#verify()} reports every capability as assumed. Turn it off only for
     * a store known to honour {@code If-None-Match} and {@code If-Match}, or when the credentials may not write a side
     * key.
     */
    public S3BackendBuilder verifyConditionalWrites(boolean verify) {
        this.verifyConditionalWrites = verify;
        return this;
    }

    /**
     * Whether {@link #build()} probes the store at once (default true). With false, {@code build()} contacts nothing
     * and the first {@link S3Backend#verify()} runs the probe instead, for callers that verify on their own thread
     * (an elector before it campaigns, the Spring starter) and must not block or fail at build while the store is
     * unreachable. No effect when {@link #verifyConditionalWrites(boolean)} is off.
     */
    public S3BackendBuilder verifyOnBuild(boolean verifyOnBuild) {
        this.verifyOnBuild = verifyOnBuild;
        return this;
    }

    /**
     * Fixes how ETags are written into {@code If-Match}. Default: unset, which sends them as received (quoted) unless
     * the {@link ConditionalWriteProbe} finds that the store compares only bare ETags (Ceph RGW does); then the
     * backend sends them bare. Set {@link IfMatchForm#BARE} for such a store when the probe is switched off. The
     * form never changes per request: a refused request is not repeated in the other form.
     */
    public S3BackendBuilder ifMatchForm(@Nullable IfMatchForm form) {
        this.ifMatchForm = form;
        return this;
    }

    /**
     * Uses an S3 client the application already has, with its region, endpoint, credentials and HTTP client. The
     * backend never closes it. The client settings of this builder (region, endpoint, path style, credentials,
     * connect timeout) must then be left unset.
     */
    public S3BackendBuilder client(S3Client client) {
        this.client = client;
        return this;
    }

    /**
     * Creates the backend and, unless switched off ({@link #verifyConditionalWrites(boolean)},
     * {@link #verifyOnBuild(boolean)}), verifies the store ({@link S3Backend#verify()}).
     *
     * @throws InvalidSettingException when a setting is missing, invalid or contradicts another (no AWS region
     *                                  found included), naming it
     * @throws BackendException         when the probe finds that the store does not honour a conditional create or
     *                                  swap ({@link BackendException.Kind#CONDITIONAL_WRITES_NOT_SUPPORTED}), or the
     *                                  store cannot be asked (unreachable, access denied, no such bucket, ...). A store
     *                                  that ignores only {@code If-Match} on DELETE is accepted; release by DELETE is
     *                                  refused on it by {@link dev.hoplock.core.backend.StoreCapabilities#requireFor}.
     */
    public S3Backend build() throws BackendException {
        requirePositive(requestTimeout, "requestTimeout");
        requirePositive(connectTimeout, "connectTimeout");
        if (bucket == null || bucket.isBlank()) {
            throw new InvalidSettingException("bucket", bucket, null, "must be set to the name of an existing bucket",
                    "no S3 bucket configured: call bucket(\"...\")");
        }
        S3Backend backend = client != null ? aroundClient(client, bucket) : withOwnClient(bucket);
        if (verifyConditionalWrites && verifyOnBuild) {
            try {
                backend.requireCreateAndSwap();
            } catch (BackendException | RuntimeException e) {
                backend.close();
                throw e;
            }
        }
        return backend;
    }

    private S3Backend aroundClient(S3Client client, String bucket) {
        String conflicting = region != null ? "region" : endpoint != null ? "endpoint" : pathStyle ? "pathStyle"
                : credentials != null ? "credentials" : !connectTimeout.equals(DEFAULT_CONNECT_TIMEOUT) ? "connectTimeout"
                : null;
        if (conflicting != null) {
            throw new InvalidSettingException(conflicting, null, null, "must be left unset when an S3Client is given",
                    "an S3Client was given, so region, endpoint, path style, credentials and connect timeout come from"
                            + " that client: do not set them on the builder as well (" + conflicting + " is set)");
        }
        var configuration = client.serviceClientConfiguration();
        Optional<URI> clientEndpoint = configuration.endpointOverride();
        String clientRegion = configuration.region() == null ? "" : configuration.region().id();
        return new S3Backend(client, false, new S3Location(bucket, prefix, clientEndpoint, clientRegion),
                requestTimeout, ifMatchForm, verifyConditionalWrites);
    }

    private S3Backend withOwnClient(String bucket) throws BackendException {
        if (endpoint != null) {
            validateEndpoint(endpoint);
        }
        if (region != null && !region.isBlank() && !REGION.matcher(region.strip()).matches()) {
            throw new InvalidSettingException("region", region, null, REGION_REASON,
                    "the S3 region '" + region + "' " + REGION_REASON);
        }
        String effectiveRegion = region != null && !region.isBlank() ? region.strip()
                : endpoint != null ? DEFAULT_REGION_WITH_ENDPOINT : null;
        S3Location location = new S3Location(bucket, prefix, Optional.ofNullable(endpoint), effectiveRegion);
        S3ClientBuilder builder = S3Client.builder()
                .httpClientBuilder(UrlConnectionHttpClient.builder()
                        .connectionTimeout(connectTimeout)
                        .socketTimeout(requestTimeout))
                .forcePathStyle(pathStyle)
                // Lease bodies are ~100 bytes. Sending CRC checksums only where S3 requires them keeps the requests
                // acceptable to S3-compatible stores that reject the SDK's newer default checksum headers.
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED);
        if (effectiveRegion != null) {
            builder.region(Region.of(effectiveRegion));
        }
        if (endpoint != null) {
            builder.endpointOverride(endpoint);
        }
        if (credentials != null) {
            builder.credentialsProvider(credentials);
        }
        S3Client created;
        try {
            created = builder.build();
        } catch (SdkException e) {
            String message = String.valueOf(e.getMessage());
            if (message.toLowerCase(java.util.Locale.ROOT).contains("region")) {
                InvalidSettingException refused = new InvalidSettingException("region", null, null,
                        "must be set: the SDK found no region (AWS_REGION, profile, instance metadata)", "no AWS region for "
                        + location.describe() + ": set region(\"...\") on the S3 backend builder or AWS_REGION in the"
                        + " environment");
                refused.initCause(e);
                throw refused;
            }
            throw new BackendException(BackendException.Kind.MISCONFIGURED, "cannot create the S3 client for "
                    + location.describe() + ": " + Redaction.clean(message), e);
        }
        String clientRegion = created.serviceClientConfiguration().region() == null ? ""
                : created.serviceClientConfiguration().region().id();
        return new S3Backend(created, true,
                new S3Location(bucket, prefix, Optional.ofNullable(endpoint), clientRegion), requestTimeout,
                ifMatchForm, verifyConditionalWrites);
    }

    private static void validateEndpoint(URI endpoint) {
        String scheme = endpoint.getScheme();
        if (endpoint.getRawUserInfo() != null) {
            throw new InvalidSettingException("endpoint", withoutUserInfo(endpoint.toString()), null,
                    "must not carry credentials", "the S3 endpoint must not carry credentials; use credentials(...)");
        }
        if (!"http".equalsIgnoreCase(scheme) && !"https".equalsIgnoreCase(scheme) || endpoint.getHost() == null) {
            throw new InvalidSettingException("endpoint", endpoint.toString(), null, ENDPOINT_REASON, ENDPOINT_RULE);
        }
    }

    private static void requirePositive(@Nullable Duration duration, String name) {
        if (duration == null || duration.isZero() || duration.isNegative()) {
            throw new InvalidSettingException(name, duration, Duration.ZERO, "must be longer than zero",
                    name + " must be positive, was " + duration);
        }
    }

    /** {@code scheme://user:password@host} without its user part, so that no credential reaches a message. */
    private static String withoutUserInfo(String endpoint) {
        return endpoint.replaceAll("//[^/@]*@", "//");
    }
}
