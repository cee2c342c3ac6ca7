package dev.hoplock.spring.autoconfigure;

import dev.hoplock.spring.annotation.OnNonLeader;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.convert.DurationUnit;

import java.nio.file.Path;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code hoplock.*} settings: the store, the timing every election inherits, the named elections, and the
 * behaviour of {@code @LeaderOnly}.
 *
 * <p>Guarantees: this class only holds what was bound; every check (and the mapping of a check back to the property at
 * fault) happens when the electors are built, so that a bad value fails the start with the property's name. Secrets
 * ({@code hoplock.s3.secret-key}, {@code hoplock.s3.session-token}) are never included in {@link #toString()}, logs,
 * events, health or endpoint output.
 */
@ConfigurationProperties("hoplock")
public class HoplockProperties {

    /** The name of the election configured when no {@code hoplock.elections.*} is set. */
    public static final String DEFAULT_ELECTION = "default";

    /**
     * Whether hoplock is configured at all. When false, no elector, backend, advisor, metric, health contributor or
     * endpoint is created, and {@code @LeaderOnly} methods are not proxied (they run everywhere).
     */
    private boolean enabled = true;

    /**
     * The store that holds the leases: s3, filesystem or memory. When unset: s3 if hoplock.s3.bucket is set,
     * filesystem if hoplock.filesystem.directory is set. A Backend bean defined by the application always wins over
     * this setting.
     */
    private BackendType backend;

    /**
     * This process's owner id, written into every lease it takes. Must be unique per process. Default:
     * host:pid:random, generated once per application context.
     */
    private String owner;

    /**
     * Lease key of the default election, the one created when no hoplock.elections.* is configured. Segments of
     * letters, digits, '.', '_' and '-' separated by '/'.
     */
    private String key = DEFAULT_ELECTION;

    /**
     * How long a written lease lasts. Followers take over no earlier than one TTL after the leader's last renewal. At
     * least 1s. A value without a unit is in seconds.
     */
    @DurationUnit(ChronoUnit.SECONDS)
    private Duration ttl = Duration.ofSeconds(30);

    /** How often the leader renews its lease. Default: ttl/3. Without a unit: seconds. */
    @DurationUnit(ChronoUnit.SECONDS)
    private Duration renew;

    /**
     * How often a follower reads the lease, and the retry delay after a failed request. A released lease is taken
     * over within about one poll interval. Default: ttl/15. A value without a unit is in seconds.
     */
    @DurationUnit(ChronoUnit.SECONDS)
    private Duration poll;

    /** The longest wait for one request to the store. Default: the renew interval. Without a unit: seconds. */
    @DurationUnit(ChronoUnit.SECONDS)
    private Duration requestTimeout;

    /**
     * How long before the lease's end (on this process's monotonic clock) the leader stops leader work. Default:
     * ttl/10. A value without a unit is in seconds.
     */
    @DurationUnit(ChronoUnit.SECONDS)
    private Duration safetyMargin;

    /**
     * On shutdown, the longest wait for leader-only work to stop and then for the release of the lease. Negative:
     * never release (the lease then expires after a TTL). A value without a unit is in seconds.
     */
    @DurationUnit(ChronoUnit.SECONDS)
    private Duration releaseTimeout = Duration.ofSeconds(2);

    /**
     * Release by a conditional DELETE, as Go hoplock does, instead of writing an expired record. The generation then
     * restarts at 1 with the next leader.
     */
    private boolean releaseByDelete = false;

    /**
     * Whether to verify, before campaigning, that the store refuses the writes a compare-and-swap store must refuse
     * (S3 only: the conditional-write probe writes and deletes a side key under the prefix). Electors start only once
     * the probe passed; a store that fails it is never campaigned on and the health contributor reports DOWN.
     */
    private boolean probe = true;

    /**
     * Order of the @LeaderOnly advisor among other advisors of a bean (lower runs first, outermost). The default 0 runs
     * it outside @Transactional and @Cacheable (whose advisors have the lowest precedence by default), so leadership
     * is checked before a transaction opens.
     */
    private int aspectOrder = 0;

    private final LeaderOnly leaderOnly = new LeaderOnly();

    private final Scheduling scheduling = new Scheduling();

    private final Endpoint endpoint = new Endpoint();

    private final Health health = new Health();

    /**
     * What to do at start-up with a hoplock.* key that is not a known property (a misspelling such as hoplock.tll):
     * warn (log it with the closest known name and where it was set), fail (refuse to start) or ignore.
     */
    private UnknownProperties unknownProperties = UnknownProperties.WARN;

    private final S3 s3 = new S3();

    private final Filesystem filesystem = new Filesystem();

    /**
     * Named elections, each with its own lease key (default: its name) and any of the timing settings above, which
     * it inherits when unset: hoplock.elections.NAME.key, owner, ttl, renew, poll, request-timeout, safety-margin,
     * release-timeout, release-by-delete. When none is set, one election named 'default' is created.
     */
    private Map<String, Election> elections = new LinkedHashMap<>();

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public BackendType getBackend() {
        return backend;
    }

    public void setBackend(BackendType backend) {
        this.backend = backend;
    }

    public String getOwner() {
        return owner;
    }

    public void setOwner(String owner) {
        this.owner = owner;
    }

    public String getKey() {
        return key;
    }

    public void setKey(String key) {
        this.key = key;
    }

    public Duration getTtl() {
        return ttl;
    }

    public void setTtl(Duration ttl) {
        this.ttl = ttl;
    }

    public Duration getRenew() {
        return renew;
    }

    public void setRenew(Duration renew) {
        this.renew = renew;
    }

    public Duration getPoll() {
        return poll;
    }

    public void setPoll(Duration poll) {
        this.poll = poll;
    }

    public Duration getRequestTimeout() {
        return requestTimeout;
    }

    public void setRequestTimeout(Duration requestTimeout) {
        this.requestTimeout = requestTimeout;
    }

    public Duration getSafetyMargin() {
        return safetyMargin;
    }

    public void setSafetyMargin(Duration safetyMargin) {
        this.safetyMargin = safetyMargin;
    }

    public Duration getReleaseTimeout() {
        return releaseTimeout;
    }

    public void setReleaseTimeout(Duration releaseTimeout) {
        this.releaseTimeout = releaseTimeout;
    }

    public boolean isReleaseByDelete() {
        return releaseByDelete;
    }

    public void setReleaseByDelete(boolean releaseByDelete) {
        this.releaseByDelete = releaseByDelete;
    }

    public boolean isProbe() {
        return probe;
    }

    public void setProbe(boolean probe) {
        this.probe = probe;
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

    public Endpoint getEndpoint() {
        return endpoint;
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

    public Map<String, Election> getElections() {
        return elections;
    }

    public void setElections(Map<String, Election> elections) {
        this.elections = elections;
    }

    @Override
    public String toString() {
        return "HoplockProperties[backend=" + backend + ", elections=" + elections.keySet() + "]";
    }

    /** One named election: every setting left unset is inherited from {@code hoplock.*}. */
    public static class Election {

        /** Lease key of this election. Default: the election's name. */
        private String key;

        /** Owner id for this election. Default: hoplock.owner. */
        private String owner;

        /** Lease duration. Default: hoplock.ttl. Without a unit: seconds. */
        @DurationUnit(ChronoUnit.SECONDS)
        private Duration ttl;

        /** Renew interval. Default: hoplock.renew, else this election's ttl/3. Without a unit: seconds. */
        @DurationUnit(ChronoUnit.SECONDS)
        private Duration renew;

        /** Poll interval. Default: hoplock.poll, else this election's ttl/15. Without a unit: seconds. */
        @DurationUnit(ChronoUnit.SECONDS)
        private Duration poll;

        /** Request timeout. Default: hoplock.request-timeout, else the renew interval. Without a unit: seconds. */
        @DurationUnit(ChronoUnit.SECONDS)
        private Duration requestTimeout;

        /** Safety margin. Default: hoplock.safety-margin, else this election's ttl/10. Without a unit: seconds. */
        @DurationUnit(ChronoUnit.SECONDS)
        private Duration safetyMargin;

        /** Release timeout. Default: hoplock.release-timeout. Without a unit: seconds. */
        @DurationUnit(ChronoUnit.SECONDS)
        private Duration releaseTimeout;

        /** Release by conditional delete. Default: hoplock.release-by-delete. */
        private Boolean releaseByDelete;

        public String getKey() {
            return key;
        }

        public void setKey(String key) {
            this.key = key;
        }

        public String getOwner() {
            return owner;
        }

        public void setOwner(String owner) {
            this.owner = owner;
        }

        public Duration getTtl() {
            return ttl;
        }

        public void setTtl(Duration ttl) {
            this.ttl = ttl;
        }

        public Duration getRenew() {
            return renew;
        }

        public void setRenew(Duration renew) {
            this.renew = renew;
        }

        public Duration getPoll() {
            return poll;
        }

        public void setPoll(Duration poll) {
            this.poll = poll;
        }

        public Duration getRequestTimeout() {
            return requestTimeout;
        }

        public void setRequestTimeout(Duration requestTimeout) {
            this.requestTimeout = requestTimeout;
        }

        public Duration getSafetyMargin() {
            return safetyMargin;
        }

        public void setSafetyMargin(Duration safetyMargin) {
            this.safetyMargin = safetyMargin;
        }

        public Duration getReleaseTimeout() {
            return releaseTimeout;
        }

        public void setReleaseTimeout(Duration releaseTimeout) {
            this.releaseTimeout = releaseTimeout;
        }

        public Boolean getReleaseByDelete() {
            return releaseByDelete;
        }

        public void setReleaseByDelete(Boolean releaseByDelete) {
            this.releaseByDelete = releaseByDelete;
        }

        @Override
        public String toString() {
            return "Election[key=" + key + "]";
        }
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

    /** The {@code hoplock} actuator endpoint. */
    public static class Endpoint {

        /**
         * Whether the endpoint offers the step-down write operation (POST /actuator/hoplock/NAME). Off by default; it
         * also needs the endpoint to be exposed (management.endpoints.web.exposure.include=hoplock).
         */
        private boolean stepDownEnabled = false;

        public boolean isStepDownEnabled() {
            return stepDownEnabled;
        }

        public void setStepDownEnabled(boolean stepDownEnabled) {
            this.stepDownEnabled = stepDownEnabled;
        }
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
        private String bucket;

        /** Put before every lease key to form the object key, exactly as given, for example 'locks/'. */
        private String prefix = "";

        /**
         * The region, for example eu-west-1. Default: the AWS SDK's region chain (AWS_REGION, profile), or us-east-1
         * when an endpoint is set.
         */
        private String region;

        /** The endpoint of an S3-compatible store, for example http://127.0.0.1:9000. Default: AWS S3. */
        private String endpoint;

        /** Address the bucket in the path (host/bucket/key) instead of the host name. Needed by MinIO. */
        private boolean pathStyle = false;

        /** Static access key id. Default: the AWS SDK's default credentials chain. */
        private String accessKey;

        /** Static secret access key, used with access-key. Never logged or shown. */
        private String secretKey;

        /** Session token of temporary credentials, used with access-key and secret-key. Never logged or shown. */
        private String sessionToken;

        /** The longest one S3 call may take, SDK retries included. Without a unit: seconds. */
        @DurationUnit(ChronoUnit.SECONDS)
        private Duration apiCallTimeout = Duration.ofSeconds(10);

        /** TCP connect timeout of the S3 client hoplock creates. Without a unit: seconds. */
        @DurationUnit(ChronoUnit.SECONDS)
        private Duration connectTimeout = Duration.ofSeconds(3);

        public String getBucket() {
            return bucket;
        }

        public void setBucket(String bucket) {
            this.bucket = bucket;
        }

        public String getPrefix() {
            return prefix;
        }

        public void setPrefix(String prefix) {
            this.prefix = prefix;
        }

        public String getRegion() {
            return region;
        }

        public void setRegion(String region) {
            this.region = region;
        }

        public String getEndpoint() {
            return endpoint;
        }

        public void setEndpoint(String endpoint) {
            this.endpoint = endpoint;
        }

        public boolean isPathStyle() {
            return pathStyle;
        }

        public void setPathStyle(boolean pathStyle) {
            this.pathStyle = pathStyle;
        }

        public String getAccessKey() {
            return accessKey;
        }

        public void setAccessKey(String accessKey) {
            this.accessKey = accessKey;
        }

        public String getSecretKey() {
            return secretKey;
        }

        public void setSecretKey(String secretKey) {
            this.secretKey = secretKey;
        }

        public String getSessionToken() {
            return sessionToken;
        }

        public void setSessionToken(String sessionToken) {
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
        private Path directory;

        /** Create the directory (and its parents) at startup when it does not exist. */
        private boolean createDirectory = true;

        public Path getDirectory() {
            return directory;
        }

        public void setDirectory(Path directory) {
            this.directory = directory;
        }

        public boolean isCreateDirectory() {
            return createDirectory;
        }

        public void setCreateDirectory(boolean createDirectory) {
            this.createDirectory = createDirectory;
        }
    }
}
