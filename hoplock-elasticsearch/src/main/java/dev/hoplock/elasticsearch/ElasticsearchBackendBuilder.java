package dev.hoplock.elasticsearch;

import dev.hoplock.core.InvalidSettingException;
import dev.hoplock.core.backend.BackendException;
import org.jspecify.annotations.Nullable;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;

/**
 * Configures an {@link ElasticsearchBackend}: the index, and either an endpoint with credentials (the backend then
 * creates and owns a JDK {@code java.net.http} client) or an {@link HttpTransport} the application already has,
 * for example {@link Rest5ClientTransport#over} its Elasticsearch low-level REST client.
 *
 * <pre>{@code
 * ElasticsearchBackend backend = ElasticsearchBackend.builder()
 *         .endpoint("https://search.example.com:9200")
 *         .basicAuth("hoplock", System.getenv("SEARCH_PASSWORD"))   // or .apiKey(...) on Elasticsearch
 *         .index("hoplock-leases")                                  // the default
 *         .build();                                                 // runs the start-up check
 * }</pre>
 *
 * <p>Guarantees: {@link #build()} checks every setting before it contacts the cluster and, unless
 * {@link #verify(boolean) switched off}, runs {@link ElasticsearchBackend#verify()} (the cluster answers, the index
 * exists or is created, compare-and-swap works), so that a misconfiguration or a store that would let two leaders
 * coexist is refused at start. Credentials (also user info in the endpoint URL, which is accepted as basic
 * authentication) go only into the {@code Authorization} header; they never appear in messages or
 * {@code toString()}. Not thread-safe; use it from one thread, then discard it.
 */
public final class ElasticsearchBackendBuilder {

    /** The index used when none is set. */
    public static final String DEFAULT_INDEX = "hoplock-leases";
    /**
     * {@link #DEFAULT_REQUEST_TIMEOUT} in seconds, a compile-time constant: a configuration layer that has this module
     * only as an optional dependency takes its default from here without loading this class.
     */
    public static final long DEFAULT_REQUEST_TIMEOUT_SECONDS = 10;
    /** {@link #DEFAULT_CONNECT_TIMEOUT} in seconds, a compile-time constant (see above). */
    public static final long DEFAULT_CONNECT_TIMEOUT_SECONDS = 3;
    /** The default cap on one backend call, all its requests together. */
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(DEFAULT_REQUEST_TIMEOUT_SECONDS);
    /** The default TCP connect timeout of a client the builder creates. */
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(DEFAULT_CONNECT_TIMEOUT_SECONDS);

    private static final String ENDPOINT_RULE = "the Elasticsearch / OpenSearch endpoint must be an http:// or"
            + " https:// URL with a host, for example https://search.example.com:9200";
    private static final Pattern INDEX_NAME = Pattern.compile("[a-z0-9][a-z0-9._+-]{0,254}|\\.[a-z0-9._+-]{1,254}");

    private @Nullable URI endpoint;
    private @Nullable String username;
    private @Nullable String password;
    private @Nullable String apiKey;
    private @Nullable SSLContext sslContext;
    private @Nullable HttpTransport transport;
    private String index = DEFAULT_INDEX;
    private boolean createIndex = true;
    private boolean verify = true;
    private Duration requestTimeout = DEFAULT_REQUEST_TIMEOUT;
    private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;

    ElasticsearchBackendBuilder() {
    }

    /**
     * The cluster's URL, for example {@code https://search.example.com:9200} or {@code http://127.0.0.1:9200/es}
     * (a path prefix is kept). User info ({@code https://user:password@host:9200}) is taken as basic
     * authentication and removed from every message.
     */
    public ElasticsearchBackendBuilder endpoint(@Nullable String endpoint) {
        if (endpoint == null || endpoint.isBlank()) {
            this.endpoint = null;
            return this;
        }
        try {
            return endpoint(new URI(endpoint.strip()));
        } catch (URISyntaxException e) {
            throw new InvalidSettingException("endpoint", ENDPOINT_RULE + "; '" + withoutUserInfo(endpoint.strip())
                    + "' is not a URL");
        }
    }

    /** See {@link #endpoint(String)}. */
    public ElasticsearchBackendBuilder endpoint(@Nullable URI endpoint) {
        this.endpoint = endpoint;
        return this;
    }

    /** Basic authentication (Elasticsearch native users, OpenSearch internal users). */
    public ElasticsearchBackendBuilder basicAuth(String username, @Nullable String password) {
        this.username = username;
        this.password = password;
        return this;
    }

    /**
     * An Elasticsearch API key, as Elasticsearch prints it in {@code encoded} (base64 of {@code id:key}); sent as
     * {@code Authorization: ApiKey <key>}.
     */
    public ElasticsearchBackendBuilder apiKey(String encodedApiKey) {
        this.apiKey = encodedApiKey;
        return this;
    }

    /** The TLS context for an {@code https} endpoint, for example one that trusts the cluster's own CA. */
    public ElasticsearchBackendBuilder sslContext(SSLContext sslContext) {
        this.sslContext = sslContext;
        return this;
    }

    /**
     * Uses an HTTP transport the application already has (for example {@link Rest5ClientTransport#over} the
     * application's {@code Rest5Client}), with its hosts, credentials and TLS settings; the backend never closes it.
     * Endpoint, credentials, TLS context and connect timeout must then be left unset.
     */
    public ElasticsearchBackendBuilder transport(HttpTransport transport) {
        this.transport = transport;
        return this;
    }

    /**
     * The index that holds the lease documents (default {@value #DEFAULT_INDEX}): lower case letters, digits and
     * {@code . _ + -}, not starting with {@code _ + -}, at most 255 characters.
     */
    public ElasticsearchBackendBuilder index(String index) {
        this.index = index;
        return this;
    }

    /**
     * Whether the start-up check creates a missing index with hoplock's fixed mapping (default true). Turn it off
     * when the credentials may not create indices; then create the index beforehand with the mapping in the README.
     */
    public ElasticsearchBackendBuilder createIndex(boolean createIndex) {
        this.createIndex = createIndex;
        return this;
    }

    /**
     * Whether {@link #build()} runs the start-up check (default true). Turn it off only when the cluster is known to
     * work and may be unreachable at start; the first elector request then reports any problem instead.
     */
    public ElasticsearchBackendBuilder verify(boolean verify) {
        this.verify = verify;
        return this;
    }

    /**
     * The longest one backend call may take, all its requests together (default 10 s). The elector's own, usually
     * shorter, budget for a call (the lease time left) applies within this cap.
     */
    public ElasticsearchBackendBuilder requestTimeout(Duration requestTimeout) {
        this.requestTimeout = requestTimeout;
        return this;
    }

    /** The TCP connect timeout of the client the builder creates (default 3 s). */
    public ElasticsearchBackendBuilder connectTimeout(Duration connectTimeout) {
        this.connectTimeout = connectTimeout;
        return this;
    }

    /**
     * Creates the backend and, unless switched off, runs its start-up check.
     *
     * @throws InvalidSettingException when a setting is missing, invalid or contradicts another; its
     *                                 {@link InvalidSettingException#setting() setting} names the builder method at
     *                                 fault ({@code endpoint}, {@code index}, {@code basicAuth}, {@code apiKey},
     *                                 {@code requestTimeout}, {@code connectTimeout})
     * @throws IllegalStateException   when a transport is given together with settings it already carries
     * @throws BackendException         when the start-up check fails; see {@link ElasticsearchBackend#verify()}
     */
    public ElasticsearchBackend build() throws BackendException {
        requirePositive(requestTimeout, "requestTimeout");
        requirePositive(connectTimeout, "connectTimeout");
        validateIndex(index);
        ElasticsearchBackend backend = transport != null ? aroundTransport(transport) : withOwnTransport();
        if (verify) {
            try {
                backend.verify();
            } catch (BackendException | RuntimeException e) {
                backend.close();
                throw e;
            }
        }
        return backend;
    }

    @Override
    public String toString() {
        return "ElasticsearchBackendBuilder[endpoint=" + (endpoint == null ? "none" : withoutUserInfo(endpoint))
                + ", index=" + index + (username != null || apiKey != null || endpoint != null
                && endpoint.getRawUserInfo() != null ? ", with credentials" : "") + "]";
    }

    private ElasticsearchBackend aroundTransport(HttpTransport transport) {
        if (endpoint != null || username != null || password != null || apiKey != null || sslContext != null
                || !connectTimeout.equals(DEFAULT_CONNECT_TIMEOUT)) {
            throw new IllegalStateException("an HttpTransport was given, so the endpoint, credentials, TLS context"
                    + " and connect timeout come from it: do not set them on the builder as well");
        }
        return new ElasticsearchBackend(transport, false, index, requestTimeout, createIndex, Redaction.none());
    }

    private ElasticsearchBackend withOwnTransport() {
        if (endpoint == null) {
            throw new InvalidSettingException("endpoint", "no Elasticsearch / OpenSearch endpoint configured: call"
                    + " endpoint(\"https://host:9200\") or transport(...)");
        }
        String scheme = endpoint.getScheme();
        if (!"http".equalsIgnoreCase(scheme) && !"https".equalsIgnoreCase(scheme) || endpoint.getHost() == null) {
            throw new InvalidSettingException("endpoint", ENDPOINT_RULE + "; got '" + withoutUserInfo(endpoint) + "'");
        }
        if (endpoint.getRawQuery() != null || endpoint.getRawFragment() != null) {
            throw new InvalidSettingException("endpoint", ENDPOINT_RULE + ", without query or fragment; got '"
                    + withoutUserInfo(endpoint) + "'");
        }
        String user = username;
        String secret = password;
        if (endpoint.getRawUserInfo() != null) {
            if (username != null || apiKey != null) {
                throw new InvalidSettingException("basicAuth", "credentials are given twice, in the endpoint URL and with"
                        + " basicAuth/apiKey: keep one");
            }
            String info = endpoint.getRawUserInfo();
            int colon = info.indexOf(':');
            user = URLDecoder.decode(colon < 0 ? info : info.substring(0, colon), StandardCharsets.UTF_8);
            secret = colon < 0 ? "" : URLDecoder.decode(info.substring(colon + 1), StandardCharsets.UTF_8);
        }
        if (user != null && apiKey != null) {
            throw new InvalidSettingException("apiKey",
                    "both basic authentication and an API key are configured: keep one");
        }
        if (user != null && (user.isEmpty() || secret == null)) {
            throw new InvalidSettingException("basicAuth", "basic authentication needs a user name and a password");
        }
        if (apiKey != null && apiKey.isBlank()) {
            throw new InvalidSettingException("apiKey", "the API key is blank");
        }
        List<String> secrets = new ArrayList<>();
        String authorization = null;
        if (user != null) {
            String token = Base64.getEncoder().encodeToString((user + ":" + secret).getBytes(StandardCharsets.UTF_8));
            authorization = "Basic " + token;
            secrets.add(secret);
            secrets.add(token);
        } else if (apiKey != null) {
            authorization = "ApiKey " + apiKey.strip();
            secrets.add(apiKey.strip());
        }
        URI base = URI.create(withoutUserInfo(endpoint).replaceAll("/+$", ""));
        JdkHttpTransport created = new JdkHttpTransport(base, authorization, connectTimeout, sslContext);
        return new ElasticsearchBackend(created, true, index, requestTimeout, createIndex, new Redaction(secrets));
    }

    private static void validateIndex(@Nullable String index) {
        if (index == null || !INDEX_NAME.matcher(index).matches() || index.equals("..")) {
            throw new InvalidSettingException("index", index, null, "is invalid: use 1 to 255 lower case letters,"
                    + " digits and '.', '_', '+', '-', not starting with '_', '+' or '-', for example " + DEFAULT_INDEX,
                    "index name '" + index + "' is invalid: use 1 to 255 lower case"
                    + " letters, digits and '.', '_', '+', '-', not starting with '_', '+' or '-', for example "
                    + DEFAULT_INDEX);
        }
    }

    private static String withoutUserInfo(URI uri) {
        if (uri.getRawUserInfo() == null) {
            return uri.toString();
        }
        return withoutUserInfo(uri.toString());
    }

    private static String withoutUserInfo(String text) {
        return text.replaceAll("(?<=//)[^/@]*@", "");
    }

    private static void requirePositive(@Nullable Duration duration, String name) {
        if (duration == null || duration.isZero() || duration.isNegative()) {
            throw new InvalidSettingException(name, duration, Duration.ZERO, "must be positive",
                    name + " must be positive, was " + duration);
        }
    }
}
