package dev.hoplock.spring.autoconfigure;

import dev.hoplock.core.ElectorSettings;
import dev.hoplock.elasticsearch.ElasticsearchBackendBuilder;
import dev.hoplock.jdbc.JdbcBackend;
import dev.hoplock.s3.S3BackendBuilder;
import dev.hoplock.spring.leader.OnNonLeader;
import dev.hoplock.spring.lock.WhenLockHeld;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.convert.DurationUnit;

import java.nio.file.Path;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code hoplock.*} settings: the store, the timing every election inherits (the {@link ElectionProperties} this
 * class extends, bound at {@code hoplock.ttl}, {@code hoplock.renew}, ...), the named elections (one
 * {@link ElectionProperties} each, at {@code hoplock.elections.NAME.*}), and the behaviour of {@code @LeaderOnly}.
 *
 * <p>Guarantees: this class only holds what was bound; every check (and the mapping of a check back to the property at
 * fault) happens when the electors are built, so that a bad value fails the start with the property's name. Secrets
 * ({@code hoplock.s3.secret-key}, {@code hoplock.s3.session-token}, {@code hoplock.elasticsearch.password},
 * {@code hoplock.elasticsearch.api-key}) are never included in {@link #toString()}, logs,
 * events, health or endpoint output.
 */
@ConfigurationProperties("hoplock")
public class HoplockProperties extends ElectionProperties {

    /** The name of the election configured when no {@code hoplock.elections.*} is set. */
    public static final String DEFAULT_ELECTION = "default";

    /**
     * Whether hoplock is configured at all. When false, no elector, backend, advisor, metric, health contributor or
     * endpoint is created, and {@code @LeaderOnly} methods are not proxied (they run everywhere).
     */
    private boolean enabled = true;

    /**
     * The store that holds the leases: s3, filesystem, jdbc, elasticsearch or memory. jdbc only when set explicitly. When unset: s3 if hoplock.s3.bucket is set,
     * filesystem if hoplock.filesystem.directory is set. A Backend bean defined by the application always wins over
     * this setting.
     */
    private @Nullable BackendType backend;

    /**
     * Whether to verify, before campaigning, that the store refuses the writes a compare-and-swap store must refuse
     * (S3 only: the conditional-write probe writes and deletes a side key under the prefix). Each elector runs the
     * store's verification before it campaigns; a store that lacks what it needs is never campaigned on and the health
     * contributor reports DOWN.
     */
    private boolean probe = true;

    /**
     * When this application campaigns: ready (the default) once its readiness state is ACCEPTING_TRAFFIC, stepping
     * down while it is REFUSING_TRAFFIC (a graceful shutdown, or the application saying it is not ready) and
     * campaigning again when it accepts traffic; started: as soon as the context has started, whatever its readiness.
     * A context not run by SpringApplication publishes no readiness and campaigns once started either way.
     */
    private CampaignWhen campaignWhen = CampaignWhen.READY;

    /**
     * Order of the @LeaderOnly advisor among other advisors of a bean (lower runs first, outermost). The default 0 runs
     * it outside @Transactional and @Cacheable (whose advisors have the lowest precedence by default), so leadership
     * is checked before a transaction opens.
     */
    private int aspectOrder = 0;

    private final LeaderOnly leaderOnly = new LeaderOnly();

    private final Scheduling scheduling = new Scheduling();

    private final Health health = new Health();

    /**
     * What to do at start-up with a hoplock.* key that is not a known property (a misspelling such as hoplock.tll):
     * warn (log it with the closest known name and where it was set), fail (refuse to start) or ignore.
     */
    private UnknownProperties unknownProperties = UnknownProperties.WARN;

    private final S3 s3 = new S3();

    private final Filesystem filesystem = new Filesystem();

    private final Jdbc jdbc = new Jdbc();

    private final Fencing fence = new Fencing();

    private final Locks locks = new Locks();

    private final Elasticsearch elasticsearch = new Elasticsearch();

    /** Per-key ownership: hoplock.ownership.group turns it on. */
    @NestedConfigurationProperty
    private final OwnershipProperties ownership = new OwnershipProperties();

    /**
     * Named elections, each with its own lease key (default: its name) and any of the timing settings above, which
     * it inherits when unset: hoplock.elections.NAME.key, owner, ttl, renew, poll, request-timeout, safety-margin,
     * release-timeout, release-by-delete. When none is set, one election named 'default' is created.
     */
    private Map<String, ElectionProperties> elections = new LinkedHashMap<>();

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public @Nullable BackendType getBackend() {
        return backend;
    }

    public void setBackend(@Nullable BackendType backend) {
        this.backend = backend;
    }

    /**
     * The defaults every election inherits: lease key {@code default} (used by the election created when no
     * {@code hoplock.elections.*} is set), and the core's TTL and release timeout ({@link ElectorSettings#DEFAULT_TTL},
     * {@link ElectorSettings#DEFAULT_RELEASE_TIMEOUT}); the other durations stay unset here and derive from the TTL in
     * the core's {@link ElectorSettings.Builder}, the one place that decides defaults.
     */
    public HoplockProperties() {
        setKey(DEFAULT_ELECTION);
        setTtl(ElectorSettings.DEFAULT_TTL);
        setReleaseTimeout(ElectorSettings.DEFAULT_RELEASE_TIMEOUT);
        setReleaseByDelete(false);
    }

    public boolean isProbe() {
        return probe;
    }

    public void setProbe(boolean probe) {
        this.probe = probe;
    }

    public CampaignWhen getCampaignWhen() {
        return campaignWhen;
    }

    public void setCampaignWhen(CampaignWhen campaignWhen) {
        this.campaignWhen = campaignWhen;
    }

    public int getAspectOrder() {
        return aspectOrder;
    }

    public void setAspectOrder(int aspectOrder) {
        this.aspectOrder = aspectOrder;
    }

    public LeaderOnly getLeaderOnly() {
        return leaderOnly;
    }

    public Scheduling getScheduling() {
        return scheduling;
    }

    public Health getHealth() {
        return health;
    }

    public UnknownProperties getUnknownProperties() {
        return unknownProperties;
    }

    public void setUnknownProperties(UnknownProperties unknownProperties) {
        this.unknownProperties = unknownProperties;
    }

    public S3 getS3() {
        return s3;
    }

    public Filesystem getFilesystem() {
        return filesystem;
    }

    public Jdbc getJdbc() {
        return jdbc;
    }

    public Fencing getFence() {
        return fence;
    }

    public Elasticsearch getElasticsearch() {
        return elasticsearch;
    }

    public OwnershipProperties getOwnership() {
        return ownership;
    }

    public Locks getLocks() {
        return locks;
    }

    public Map<String, ElectionProperties> getElections() {
        return elections;
    }

    public void setElections(Map<String, ElectionProperties> elections) {
        this.elections = elections;
    }

    @Override
    public String toString() {
        return "HoplockProperties[backend=" + backend + ", elections=" + elections.keySet() + "]";
    }

    /** Defaults of {@code @LeaderOnly}. */
    public static class LeaderOnly {

        /**
         * What a @LeaderOnly call does on an instance that does not lead, unless the annotation says otherwise: skip
         * (return null, an empty Optional, collection, map, stream or array) or throw (NotLeaderException).
         */
        private OnNonLeader onNonLeader = OnNonLeader.SKIP;

        public OnNonLeader getOnNonLeader() {
            return onNonLeader;
        }

        public void setOnNonLeader(OnNonLeader onNonLeader) {
            this.onNonLeader = onNonLeader;
        }
    }

    /** How {@code @Scheduled} methods are gated. */
    public static class Scheduling {

        /**
         * Make every @Scheduled method leader-only (default election, skip on non-leaders, interrupt on loss) without
         * annotating it with @LeaderOnly. A @LeaderOnly annotation on a method still takes precedence.
         */
        private boolean leaderOnlyAll = false;

        public boolean isLeaderOnlyAll() {
            return leaderOnlyAll;
        }

        public void setLeaderOnlyAll(boolean leaderOnlyAll) {
            this.leaderOnlyAll = leaderOnlyAll;
        }
    }

    /** When {@code hoplock.campaign-when} lets this application campaign. */
    public enum CampaignWhen {
        /** As soon as the application context has started (warming-up instances may win). */
        STARTED,
        /** While the application's readiness state is ACCEPTING_TRAFFIC. */
        READY
    }

    /** What {@code hoplock.unknown-properties} does with a {@code hoplock.*} key that is not a known property. */
    public enum UnknownProperties {
        /** Log a warning naming the key, the closest known property and where the key was set. */
        WARN,
        /** Fail the start with the same explanation. */
        FAIL,
        /** Say nothing. */
        IGNORE
    }

    /** The {@code hoplock} health contributor. */
    public static class Health {

        /**
         * Whether a store outage (the store has not answered for longer than one TTL) makes the hoplock health
         * contributor DOWN, and with it the application's aggregate health (HTTP 503). Off by default: every
         * instance sees the same outage, and a load balancer probing /actuator/health would drop the whole fleet
         * although the application could serve; the contributor then reports UNKNOWN with the reason. A store that
         * answers reads but refuses every write, or that fails the conditional-write probe, is DOWN either way.
         */
        private boolean downOnStoreOutage = false;

        public boolean isDownOnStoreOutage() {
            return downOnStoreOutage;
        }

        public void setDownOnStoreOutage(boolean downOnStoreOutage) {
            this.downOnStoreOutage = downOnStoreOutage;
        }
    }

    /** The S3 store (needs {@code dev.hoplock:hoplock-s3}). */
    public static class S3 {

        /** The bucket that holds the lease objects. It must exist. */
        private @Nullable String bucket;

        /** Put before every lease key to form the object key, exactly as given, for example 'locks/'. */
        private String prefix = "";

        /**
         * The region, for example eu-west-1. Default: the AWS SDK's region chain (AWS_REGION, profile), or us-east-1
         * when an endpoint is set.
         */
        private @Nullable String region;

        /** The endpoint of an S3-compatible store, for example http://127.0.0.1:9000. Default: AWS S3. */
        private @Nullable String endpoint;

        /** Address the bucket in the path (host/bucket/key) instead of the host name. Needed by MinIO. */
        private boolean pathStyle = false;

        /** Static access key id. Default: the AWS SDK's default credentials chain. */
        private @Nullable String accessKey;

        /** Static secret access key, used with access-key. Never logged or shown. */
        private @Nullable String secretKey;

        /** Session token of temporary credentials, used with access-key and secret-key. Never logged or shown. */
        private @Nullable String sessionToken;

        /** The longest one S3 call may take, SDK retries included. Without a unit: seconds. */
        @DurationUnit(ChronoUnit.SECONDS)
        private Duration apiCallTimeout = Duration.ofSeconds(S3BackendBuilder.DEFAULT_REQUEST_TIMEOUT_SECONDS);

        /** TCP connect timeout of the S3 client hoplock creates. Without a unit: seconds. */
        @DurationUnit(ChronoUnit.SECONDS)
        private Duration connectTimeout = Duration.ofSeconds(S3BackendBuilder.DEFAULT_CONNECT_TIMEOUT_SECONDS);

        public @Nullable String getBucket() {
            return bucket;
        }

        public void setBucket(@Nullable String bucket) {
            this.bucket = bucket;
        }

        public String getPrefix() {
            return prefix;
        }

        public void setPrefix(String prefix) {
            this.prefix = prefix;
        }

        public @Nullable String getRegion() {
            return region;
        }

        public void setRegion(@Nullable String region) {
            this.region = region;
        }

        public @Nullable String getEndpoint() {
            return endpoint;
        }

        public void setEndpoint(@Nullable String endpoint) {
            this.endpoint = endpoint;
        }

        public boolean isPathStyle() {
            return pathStyle;
        }

        public void setPathStyle(boolean pathStyle) {
            this.pathStyle = pathStyle;
        }

        public @Nullable String getAccessKey() {
            return accessKey;
        }

        public void setAccessKey(@Nullable String accessKey) {
            this.accessKey = accessKey;
        }

        public @Nullable String getSecretKey() {
            return secretKey;
        }

        public void setSecretKey(@Nullable String secretKey) {
            this.secretKey = secretKey;
        }

        public @Nullable String getSessionToken() {
            return sessionToken;
        }

        public void setSessionToken(@Nullable String sessionToken) {
            this.sessionToken = sessionToken;
        }

        public Duration getApiCallTimeout() {
            return apiCallTimeout;
        }

        public void setApiCallTimeout(Duration apiCallTimeout) {
            this.apiCallTimeout = apiCallTimeout;
        }

        public Duration getConnectTimeout() {
            return connectTimeout;
        }

        public void setConnectTimeout(Duration connectTimeout) {
            this.connectTimeout = connectTimeout;
        }

        /** True when any setting of the S3 client itself is set, so that hoplock builds its own client. */
        boolean hasClientSettings() {
            return region != null || endpoint != null || pathStyle || accessKey != null || secretKey != null
                    || sessionToken != null;
        }

        @Override
        public String toString() {
            return "S3[bucket=" + bucket + ", prefix=" + prefix + ", endpoint=" + endpoint + "]";
        }
    }

    /** The filesystem store. */
    public static class Filesystem {

        /**
         * The directory that holds the lease files. Local disks only, never a network file system: processes on one
         * host share it.
         */
        private @Nullable Path directory;

        /** Create the directory (and its parents) at startup when it does not exist. */
        private boolean createDirectory = true;

        public @Nullable Path getDirectory() {
            return directory;
        }

        public void setDirectory(@Nullable Path directory) {
            this.directory = directory;
        }

        public boolean isCreateDirectory() {
            return createDirectory;
        }

        public void setCreateDirectory(boolean createDirectory) {
            this.createDirectory = createDirectory;
        }
    }

    /** When hoplock creates its table at start-up, like Boot's spring.sql.init.mode. */
    public enum SchemaInitialization {
        /** Only in an embedded database (H2 in memory or in a local file). */
        EMBEDDED,
        /** Always (CREATE TABLE IF NOT EXISTS); the database user needs the right to create tables. */
        ALWAYS,
        /** Never: create it from the shipped DDL (META-INF/hoplock/jdbc/) with your migration tool. */
        NEVER
    }

    /**
     * A table hoplock keeps in an application database: which {@code DataSource} holds it, its name, and whether
     * hoplock creates it at start-up. The lease table of the JDBC store ({@link Jdbc}, {@code hoplock.jdbc.*}) and
     * the fence table ({@link Fencing}, {@code hoplock.fence.*}) are both one. The field comments below are the JDBC
     * store's descriptions in the configuration metadata; the fence's own, and both tables' default names, are in
     * {@code META-INF/additional-spring-configuration-metadata.json}.
     */
    public abstract static class DatabaseTable {

        /**
         * The name of the DataSource bean that holds the lease table. Default: the application's DataSource (the only
         * one, or the @Primary one).
         */
        private @Nullable String dataSource;

        /**
         * The lease table: an unquoted identifier, optionally schema-qualified (ops.hoplock_lease). Its DDL is in
         * META-INF/hoplock/jdbc/schema-postgresql.sql, schema-mariadb.sql and schema-h2.sql of hoplock-jdbc.
         */
        private String table;

        /**
         * When to create the lease table at start-up: embedded (only in an embedded database such as H2, the
         * default), always, or never.
         */
        private SchemaInitialization initializeSchema = SchemaInitialization.EMBEDDED;

        /** @param defaultTable the table's name unless set */
        DatabaseTable(String defaultTable) {
            this.table = defaultTable;
        }

        public @Nullable String getDataSource() {
            return dataSource;
        }

        public void setDataSource(@Nullable String dataSource) {
            this.dataSource = dataSource;
        }

        public String getTable() {
            return table;
        }

        public void setTable(String table) {
            this.table = table;
        }

        public SchemaInitialization getInitializeSchema() {
            return initializeSchema;
        }

        public void setInitializeSchema(SchemaInitialization initializeSchema) {
            this.initializeSchema = initializeSchema;
        }
    }

    /** The JDBC store (needs {@code dev.hoplock:hoplock-jdbc} and a {@code DataSource}). */
    public static class Jdbc extends DatabaseTable {

        /**
         * The longest one statement of the store may take; the elector's own, usually shorter, budget applies within
         * it. Without a unit: seconds.
         */
        @DurationUnit(ChronoUnit.SECONDS)
        private Duration requestTimeout = Duration.ofSeconds(JdbcBackend.DEFAULT_REQUEST_TIMEOUT_SECONDS);

        public Jdbc() {
            super("hoplock_lease");
        }

        public Duration getRequestTimeout() {
            return requestTimeout;
        }

        public void setRequestTimeout(Duration requestTimeout) {
            this.requestTimeout = requestTimeout;
        }
    }

    /** The fence of {@code @Fenced} methods (the JDBC fence needs {@code dev.hoplock:hoplock-jdbc}). */
    public static class Fencing extends DatabaseTable {

        public Fencing() {
            super("hoplock_fence");
        }
    }

    /**
     * The Elasticsearch / OpenSearch store (needs {@code dev.hoplock:hoplock-elasticsearch}): one document per lease
     * key in one index, swapped by its sequence number and primary term.
     */
    public static class Elasticsearch {

        /**
         * The cluster's URL, for example https://search.example.com:9200 (a path prefix is kept). Default: the
         * application's Elasticsearch low-level client (the Rest5Client bean Spring Boot configures from
         * spring.elasticsearch.*), with its hosts, credentials and TLS settings.
         */
        private @Nullable String endpoint;

        /** The index that holds the lease documents; hoplock creates it with its mapping when missing. */
        private String index = "hoplock-leases";

        /** User name for basic authentication, with password. */
        private @Nullable String username;

        /** Password for basic authentication, with username. Never logged or shown. */
        private @Nullable String password;

        /** An Elasticsearch API key, as Elasticsearch prints it in 'encoded' (base64 of id:key). Never logged or shown. */
        private @Nullable String apiKey;

        /**
         * Create the index with hoplock's fixed mapping when it does not exist. Turn off when the credentials may not
         * create indices; then create it beforehand with the mapping in the README.
         */
        private boolean createIndex = true;

        /**
         * Check at start-up that the cluster answers, that the index exists (or create it) and that compare-and-swap
         * works, and fail the start with the cause and the fix if not. When false, the application starts without
         * the cluster; each elector runs the same check before it campaigns, and the health contributor tells what
         * is wrong.
         */
        private boolean checkOnStart = true;

        /** The longest one store call may take, all its requests together. Without a unit: seconds. */
        @DurationUnit(ChronoUnit.SECONDS)
        private Duration requestTimeout = Duration.ofSeconds(ElasticsearchBackendBuilder.DEFAULT_REQUEST_TIMEOUT_SECONDS);

        /** TCP connect timeout of the HTTP client hoplock creates. Without a unit: seconds. */
        @DurationUnit(ChronoUnit.SECONDS)
        private Duration connectTimeout = Duration.ofSeconds(ElasticsearchBackendBuilder.DEFAULT_CONNECT_TIMEOUT_SECONDS);

        public @Nullable String getEndpoint() {
            return endpoint;
        }

        public void setEndpoint(@Nullable String endpoint) {
            this.endpoint = endpoint;
        }

        public String getIndex() {
            return index;
        }

        public void setIndex(String index) {
            this.index = index;
        }

        public @Nullable String getUsername() {
            return username;
        }

        public void setUsername(@Nullable String username) {
            this.username = username;
        }

        public @Nullable String getPassword() {
            return password;
        }

        public void setPassword(@Nullable String password) {
            this.password = password;
        }

        public @Nullable String getApiKey() {
            return apiKey;
        }

        public void setApiKey(@Nullable String apiKey) {
            this.apiKey = apiKey;
        }

        public boolean isCreateIndex() {
            return createIndex;
        }

        public void setCreateIndex(boolean createIndex) {
            this.createIndex = createIndex;
        }

        public boolean isCheckOnStart() {
            return checkOnStart;
        }

        public void setCheckOnStart(boolean checkOnStart) {
            this.checkOnStart = checkOnStart;
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

        /** True when a setting of the HTTP client itself is set, so that hoplock creates its own client. */
        boolean hasClientSettings() {
            return endpoint != null || username != null || password != null || apiKey != null;
        }

        @Override
        public String toString() {
            return "Elasticsearch[endpoint=" + (endpoint == null ? null : endpoint.replaceAll("(?<=//)[^/@]*@", ""))
                    + ", index=" + index + "]";
        }
    }

    /** Named locks: the Locks bean and @WithLock, in the same store as the elections. */
    public static class Locks {

        /**
         * The owner id written into every lock record this instance takes. Must be unique per process. Default: one id
         * per process (host:pid:random), the same for every Locks instance of the process.
         */
        private @Nullable String owner;

        /** The prefix of every lock's record key: the lock "report" is stored under "locks/report" by default. */
        private String keyPrefix = "locks/";

        /** The most each request to the store may take. */
        private Duration requestTimeout = Duration.ofSeconds(5);

        /** How often a blocking acquire retries, and a failed keep-alive renewal is retried. */
        private Duration pollInterval = Duration.ofSeconds(1);

        /**
         * What a @WithLock call does when its lock is held elsewhere, unless the annotation says otherwise: skip
         * (return null, an empty Optional, collection, map, stream or array) or throw (LockNotTakenException).
         */
        private WhenLockHeld whenHeld = WhenLockHeld.SKIP;

        public @Nullable String getOwner() {
            return owner;
        }

        public void setOwner(@Nullable String owner) {
            this.owner = owner;
        }

        public String getKeyPrefix() {
            return keyPrefix;
        }

        public void setKeyPrefix(String keyPrefix) {
            this.keyPrefix = keyPrefix;
        }

        public Duration getRequestTimeout() {
            return requestTimeout;
        }

        public void setRequestTimeout(Duration requestTimeout) {
            this.requestTimeout = requestTimeout;
        }

        public Duration getPollInterval() {
            return pollInterval;
        }

        public void setPollInterval(Duration pollInterval) {
            this.pollInterval = pollInterval;
        }

        public WhenLockHeld getWhenHeld() {
            return whenHeld;
        }

        public void setWhenHeld(WhenLockHeld whenHeld) {
            this.whenHeld = whenHeld;
        }
    }
}
