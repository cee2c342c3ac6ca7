package dev.hoplock.nats;

import dev.hoplock.core.InvalidSettingException;
import dev.hoplock.core.backend.BackendException;
import io.nats.client.Connection;
import io.nats.client.Nats;
import io.nats.client.Options;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Configures a {@link NatsBackend}: the bucket and key prefix, what the bucket must be (history, replicas) and whether
 * to create it, and either the settings of a connection that the backend opens and owns (servers, credentials,
 * timeouts) or a {@link Connection} the application already has, which the backend uses as it is and never closes.
 *
 * <p>Guarantees: {@link #build()} checks every setting before it contacts a server; a bad one is refused with an
 * {@link InvalidSettingException} whose {@link InvalidSettingException#setting() setting} is the name of this builder's
 * method ({@code servers}, {@code bucket}, {@code keyPrefix}, {@code history}, {@code replicas},
 * {@code requestTimeout}, {@code connectTimeout}, {@code credentialsFile}, {@code connection}), so that a configuration
 * layer can name its own property. Then, unless {@link #verify(boolean) switched off}, it runs
 * {@link NatsBackend#verify()} and refuses a store without a conditional create and swap
 * ({@link dev.hoplock.core.backend.StoreNotCapableException}, such as nats-server before 2.9.21 in a cluster), so that a missing or unfit bucket, JetStream switched off, wrong credentials or a missing
 * permission are reported at start, naming the cause and the fix. Passwords, tokens and credentials files are handed
 * to the client only; they never appear in messages, logs or {@code toString()}. Not thread-safe; use it from one
 * thread, then discard it.
 */
public final class NatsBackendBuilder {

    /** The default bucket name. */
    public static final String DEFAULT_BUCKET = "hoplock";
    /** The default server, as the NATS client has it. */
    public static final String DEFAULT_SERVER = "nats://localhost:4222";
    /** {@link #DEFAULT_CONNECT_TIMEOUT} in seconds, a compile-time constant. */
    public static final long DEFAULT_CONNECT_TIMEOUT_SECONDS = 3;
    /** The default connect timeout of a connection the builder opens. */
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(DEFAULT_CONNECT_TIMEOUT_SECONDS);

    /** How often a connection the builder opens pings its server (two unanswered pings: reconnect elsewhere). */
    static final Duration PING_INTERVAL = Duration.ofSeconds(2);

    private static final Set<String> SCHEMES = Set.of("nats", "tls", "opentls", "ws", "wss");

    private List<String> servers = List.of(DEFAULT_SERVER);
    private String bucket = DEFAULT_BUCKET;
    private @Nullable String keyPrefix;
    private boolean createBucket;
    private @Nullable Integer history;
    private @Nullable Integer replicas;
    private Duration requestTimeout = NatsBackend.DEFAULT_REQUEST_TIMEOUT;
    private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
    private boolean verify = true;
    private @Nullable String user;
    private char @Nullable [] password;
    private char @Nullable [] token;
    private @Nullable Path credentialsFile;
    private @Nullable Connection connection;

    NatsBackendBuilder() {
    }

    /**
     * The servers of a connection the builder opens (default {@value #DEFAULT_SERVER}): {@code nats://host:port}, or
     * {@code tls://}, {@code ws://}, {@code wss://}. No user info in the URL: use {@link #userInfo} or {@link #token}.
     */
    public NatsBackendBuilder servers(String... servers) {
        this.servers = servers == null ? List.of() : Arrays.asList(servers);
        return this;
    }

    /** See {@link #servers(String...)}. */
    public NatsBackendBuilder servers(List<String> servers) {
        this.servers = servers == null ? List.of() : new ArrayList<>(servers);
        return this;
    }

    /** The KV bucket that holds the leases (default {@value #DEFAULT_BUCKET}). */
    public NatsBackendBuilder bucket(String bucket) {
        this.bucket = bucket;
        return this;
    }

    /**
     * Put before every KV key as its own subject tokens (default: none): with prefix {@code billing} the lease key
     * {@code leader} is the KV key {@code billing.leader}, and a user's permissions can be limited to
     * {@code $KV.<bucket>.billing.>}.
     */
    public NatsBackendBuilder keyPrefix(@Nullable String keyPrefix) {
        this.keyPrefix = keyPrefix;
        return this;
    }

    /**
     * Whether {@link #build()} creates the bucket when it does not exist (default false), on file storage with the
     * {@linkplain #history history} and {@linkplain #replicas replicas} asked for (1 each when not set) and a random
     * first revision. Needs permission to publish to {@code $JS.API.STREAM.CREATE/UPDATE/PURGE.KV_<bucket>}.
     */
    public NatsBackendBuilder createBucket(boolean createBucket) {
        this.createBucket = createBucket;
        return this;
    }

    /** The values per key the bucket must keep (checked at start when set; 1 to 64). Default: any, 1 when created. */
    public NatsBackendBuilder history(int history) {
        this.history = history;
        return this;
    }

    /** The replicas the bucket must have (checked at start when set; 1 to 5). Default: any, 1 when created. */
    public NatsBackendBuilder replicas(int replicas) {
        this.replicas = replicas;
        return this;
    }

    /**
     * The longest one backend call may take (default 10 s). The elector's own, usually shorter, budget for a call (the
     * lease time left) applies within this cap. Each request of the start-up check gets as long.
     */
    public NatsBackendBuilder requestTimeout(Duration requestTimeout) {
        this.requestTimeout = requestTimeout;
        return this;
    }

    /** The connect timeout of a connection the builder opens (default 3 s). */
    public NatsBackendBuilder connectTimeout(Duration connectTimeout) {
        this.connectTimeout = connectTimeout;
        return this;
    }

    /** Whether {@link #build()} checks the bucket (default true). Off, nothing is sent until the first call. */
    public NatsBackendBuilder verify(boolean verify) {
        this.verify = verify;
        return this;
    }

    /** A user and password for a connection the builder opens. */
    public NatsBackendBuilder userInfo(String user, char @Nullable [] password) {
        this.user = user;
        this.password = password == null ? null : password.clone();
        return this;
    }

    /** A user and password for a connection the builder opens. */
    public NatsBackendBuilder userInfo(String user, @Nullable String password) {
        return userInfo(user, password == null ? null : password.toCharArray());
    }

    /** An authentication token for a connection the builder opens. */
    public NatsBackendBuilder token(char @Nullable [] token) {
        this.token = token == null ? null : token.clone();
        return this;
    }

    /** An authentication token for a connection the builder opens. */
    public NatsBackendBuilder token(@Nullable String token) {
        return token(token == null ? null : token.toCharArray());
    }

    /** A credentials file (a user JWT and nkey seed, as {@code nsc} writes it) for a connection the builder opens. */
    public NatsBackendBuilder credentialsFile(Path credentialsFile) {
        this.credentialsFile = credentialsFile;
        return this;
    }

    /**
     * An open connection of the application, used as it is and never closed by the backend. Servers, credentials and
     * the connect timeout then come from that connection: do not set them here as well. A connection that buffers
     * while reconnecting is fine: the backend sends nothing while it is not connected.
     */
    public NatsBackendBuilder connection(Connection connection) {
        this.connection = connection;
        return this;
    }

    /**
     * Creates the backend: checks the settings, opens the connection unless one was given, and checks the bucket
     * unless switched off.
     *
     * @throws InvalidSettingException when a setting is invalid, naming it
     * @throws BackendException        when the servers cannot be reached, refuse the credentials, lack JetStream, or
     *                                 the bucket is missing or unfit (see {@link NatsBackend#verify()})
     */
    public NatsBackend build() throws BackendException {
        KvKeys keys = new KvKeys(bucket, keyPrefix);
        requirePositive(requestTimeout, "requestTimeout");
        requirePositive(connectTimeout, "connectTimeout");
        if (history != null && (history < 1 || history > 64)) {
            throw new InvalidSettingException("history", history, 64, "must be 1 to 64 (NATS KV keeps at most 64"
                    + " values per key)", "history must be 1 to 64, was " + history);
        }
        if (replicas != null && (replicas < 1 || replicas > 5)) {
            throw new InvalidSettingException("replicas", replicas, 5, "must be 1 to 5 (NATS streams have at most 5"
                    + " replicas)", "replicas must be 1 to 5, was " + replicas);
        }
        BucketSetup.Settings settings = new BucketSetup.Settings(createBucket, history, replicas);
        NatsBackend backend;
        if (connection != null) {
            List<String> conflicting = new ArrayList<>();
            if (!servers.equals(List.of(DEFAULT_SERVER))) {
                conflicting.add("servers");
            }
            if (user != null || token != null || credentialsFile != null) {
                conflicting.add("credentials");
            }
            if (!connectTimeout.equals(DEFAULT_CONNECT_TIMEOUT)) {
                conflicting.add("connectTimeout");
            }
            if (!conflicting.isEmpty()) {
                throw new InvalidSettingException("connection", "given an application connection, the servers,"
                        + " credentials and connect timeout come from that connection: do not set them on the builder as"
                        + " well (" + String.join(", ", conflicting) + " is set)");
            }
            backend = new NatsBackend(connection, false, keys, describeServers(connection.getOptions().getServers()
                    .stream().map(URI::toString).toList()), requestTimeout, settings);
        } else {
            List<String> urls = validServers();
            Options options = options(urls);
            Connection opened;
            String shown = describeServers(urls);
            try {
                opened = Nats.connect(options);
            } catch (IOException e) {
                throw new NatsErrors("nats-kv://" + keys.bucket() + " at " + shown, shown, keys).connectFailed(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new BackendException(BackendException.Kind.UNREACHABLE, "interrupted while connecting to NATS at "
                        + shown, e);
            }
            backend = new NatsBackend(opened, true, keys, shown, requestTimeout, settings);
        }
        if (verify) {
            try {
                // No elector, lock or ownership group can be safe without a conditional create and swap.
                backend.verify().requireFor(false);
            } catch (BackendException | RuntimeException e) {
                closeQuietly(backend);
                throw e;
            }
        }
        return backend;
    }

    private Options options(List<String> urls) {
        Options.Builder options = new Options.Builder()
                .servers(urls.toArray(String[]::new))
                .connectionName("hoplock")
                .connectionTimeout(connectTimeout)
                .maxReconnects(-1)
                // A server that stops answering without closing the socket (paused, cut off by a partition) is left
                // after two unanswered pings, about 4 to 6 s, for another server of the list; the client's default
                // (2 min) would keep this process away from the store for minutes.
                .pingInterval(PING_INTERVAL)
                .maxPingsOut(2)
                // Nothing is queued while disconnected: a lease write sent after the caller gave up would be a write
                // nobody waits for. The backend also sends nothing while the connection is not connected.
                .reconnectBufferSize(0);
        if (user != null) {
            options.userInfo(user.toCharArray(), password == null ? new char[0] : password.clone());
        }
        if (token != null) {
            options.token(token.clone());
        }
        if (credentialsFile != null) {
            options.authHandler(Nats.credentials(credentialsFile.toString()));
        }
        return options.build();
    }

    private List<String> validServers() {
        if (servers.isEmpty()) {
            throw new InvalidSettingException("servers", servers, null, "must name at least one server",
                    "no NATS server given: set servers(\"nats://host:4222\")");
        }
        if (credentialsFile != null && !Files.isReadable(credentialsFile)) {
            throw new InvalidSettingException("credentialsFile", credentialsFile.toString(), null,
                    "must be a readable file", "the NATS credentials file " + credentialsFile + " cannot be read");
        }
        List<String> urls = new ArrayList<>();
        for (String server : servers) {
            String stripped = server == null ? "" : server.strip();
            String candidate = stripped.contains("://") ? stripped : "nats://" + stripped;
            String shown = Redaction.url(candidate);
            URI uri;
            try {
                uri = new URI(candidate);
            } catch (URISyntaxException e) {
                throw new InvalidSettingException("servers", shown, null, "must be a URL such as nats://host:4222",
                        "the NATS server '" + shown + "' is not a URL such as nats://host:4222");
            }
            if (uri.getRawUserInfo() != null || !shown.equals(candidate)) {
                throw new InvalidSettingException("servers", shown, null, "must not carry credentials",
                        "the NATS server URL " + shown + " must not carry credentials; use userInfo(...), token(...)"
                                + " or credentialsFile(...)");
            }
            if (uri.getScheme() == null || !SCHEMES.contains(uri.getScheme().toLowerCase(Locale.ROOT))
                    || uri.getHost() == null) {
                throw new InvalidSettingException("servers", shown, null,
                        "must be a nats://, tls://, ws:// or wss:// URL with a host",
                        "the NATS server '" + shown + "' must be a nats://, tls://, ws:// or wss:// URL with a host");
            }
            urls.add(uri.toString());
        }
        return urls;
    }

    private static String describeServers(List<String> urls) {
        return String.join(",", urls.stream().map(Redaction::url).toList());
    }

    private static void requirePositive(@Nullable Duration duration, String name) {
        if (duration == null || duration.isZero() || duration.isNegative()) {
            throw new InvalidSettingException(name, duration, Duration.ZERO, "must be longer than zero",
                    name + " must be positive, was " + duration);
        }
    }

    private static void closeQuietly(NatsBackend backend) {
        try {
            backend.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return "NatsBackendBuilder[bucket=" + bucket + ", servers=" + describeServers(servers) + "]";
    }
}
