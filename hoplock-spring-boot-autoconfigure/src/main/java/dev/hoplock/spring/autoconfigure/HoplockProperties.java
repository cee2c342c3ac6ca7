package dev.hoplock.spring.autoconfigure;

import dev.hoplock.core.election.ElectorSettings;
import dev.hoplock.spring.leader.OnNonLeader;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.DeprecatedConfigurationProperty;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The shared {@code hoplock.*} settings: whether hoplock is on, which store holds the leases
 * ({@code hoplock.backend}, {@code hoplock.probe}), the timing every election inherits (the
 * {@link ElectionProperties} this class extends, bound at {@code hoplock.ttl}, {@code hoplock.renew}, ...), the named
 * elections (one {@link ElectionProperties} each, at {@code hoplock.elections.NAME.*}), when the application
 * campaigns, the behaviour of {@code @LeaderOnly}, the health contributor, and what to do with unknown
 * {@code hoplock.*} keys.
 *
 * <p>Each store's settings belong to the configuration of that store, in its own package, so that this class and the
 * shared configuration import no store module: {@code hoplock.s3.*} ({@code s3.S3Properties}),
 * {@code hoplock.jdbc.*} ({@code jdbc.JdbcProperties}), {@code hoplock.elasticsearch.*}
 * ({@code elasticsearch.ElasticsearchProperties}), {@code hoplock.filesystem.*}
 * ({@code filesystem.FilesystemProperties}); so do each feature's: {@code hoplock.locks.*} ({@link LockProperties}),
 * {@code hoplock.ownership.*} ({@link OwnershipProperties}), {@code hoplock.fence.*}
 * ({@code jdbc.JdbcFenceProperties}). {@link KnownProperties} lists them all.
 *
 * <p>Guarantees: this class only holds what was bound; every check (and the mapping of a check back to the property at
 * fault) happens when the electors are built, so that a bad value fails the start with the property's name. It holds
 * no secret; the stores' secrets are never included in their properties' {@code toString()}, logs, events, health or
 * endpoint output.
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
     * When this application takes part, for every primitive alike: ready (the default) once its readiness state is
     * ACCEPTING_TRAFFIC: its elections campaign, its ownership group joins, and @WithLock calls take their locks (a
     * call before that is skipped like one whose lock is held elsewhere, and counted); while it is REFUSING_TRAFFIC
     * (a graceful shutdown, or the application saying it is not ready) a leader steps down and @WithLock calls are
     * skipped again (the ownership group stays joined). started: as soon as the context has started, whatever its
     * readiness. A context not run by SpringApplication publishes no readiness and acts once started either way.
     */
    private @Nullable ActWhen actWhen;

    /** Replaced by hoplock.act-when, which covers every primitive; used when hoplock.act-when is not set. */
    private @Nullable CampaignWhen campaignWhen;

    /**
     * Order of the @LeaderOnly advisor among other advisors of a bean (lower runs first, outermost). The default 0 runs
     * it outside @Transactional and @Cacheable (whose advisors have the lowest precedence by default), so leadership
     * is checked before a transaction opens.
     */
    private int aspectOrder = 0;

    private final LeaderOnly leaderOnly = new LeaderOnly();

    private final Scheduling scheduling = new Scheduling();

    private final Health health = new Health();

    private final Observations observations = new Observations();

    /**
     * What to do at start-up with a hoplock.* key that is not a known property (a misspelling such as hoplock.tll):
     * warn (log it with the closest known name and where it was set), fail (refuse to start) or ignore.
     */
    private UnknownProperties unknownProperties = UnknownProperties.WARN;

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

    public @Nullable ActWhen getActWhen() {
        return actWhen;
    }

    public void setActWhen(@Nullable ActWhen actWhen) {
        this.actWhen = actWhen;
    }

    /**
     * When this application takes part: {@code hoplock.act-when}; when unset, the deprecated
     * {@code hoplock.campaign-when}; when neither is set, {@link ActWhen#READY}.
     */
    public ActWhen actWhen() {
        ActWhen set = actWhen;
        if (set != null) {
            return set;
        }
        CampaignWhen old = campaignWhen;
        return old == CampaignWhen.STARTED ? ActWhen.STARTED : ActWhen.READY;
    }

    /** @deprecated replaced by {@code hoplock.act-when} ({@link #getActWhen()}), which covers every primitive */
    @Deprecated
    @DeprecatedConfigurationProperty(replacement = "hoplock.act-when", reason = "hoplock.act-when covers every"
            + " primitive (elections, the ownership group, @WithLock) with the same default")
    public @Nullable CampaignWhen getCampaignWhen() {
        return campaignWhen;
    }

    /** @deprecated replaced by {@code hoplock.act-when} */
    @Deprecated
    public void setCampaignWhen(@Nullable CampaignWhen campaignWhen) {
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

    public Observations getObservations() {
        return observations;
    }

    public UnknownProperties getUnknownProperties() {
        return unknownProperties;
    }

    public void setUnknownProperties(UnknownProperties unknownProperties) {
        this.unknownProperties = unknownProperties;
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

    /** When {@code hoplock.act-when} lets this application take part (campaign, join, take locks). */
    public enum ActWhen {
        /** As soon as the application context has started (warming-up instances may act). */
        STARTED,
        /** While the application's readiness state is ACCEPTING_TRAFFIC. */
        READY
    }

    /** The values of the deprecated {@code hoplock.campaign-when}; see {@link ActWhen}. */
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

    /** Micrometer Observations (traces) of hoplock, with the application's {@code ObservationRegistry}. */
    public static class Observations {

        /**
         * Whether hoplock observes its store requests, lease terms, membership changes and gated calls when the
         * application has an ObservationRegistry (Spring Boot's actuator provides one): each becomes a span with the
         * application's tracer and a timer with its meter registry. Low-cardinality keys only; never a lease key, lock
         * name or secret. When false, or without a registry, nothing is observed and the gates cost what they cost
         * without observations.
         */
        private boolean enabled = true;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }
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

    /**
     * When hoplock creates a table it keeps in an application database at start-up (the JDBC store's lease table,
     * the fence table), like Boot's spring.sql.init.mode.
     */
    public enum SchemaInitialization {
        /** Only in an embedded database (H2 in memory or in a local file). */
        EMBEDDED,
        /** Always (CREATE TABLE IF NOT EXISTS); the database user needs the right to create tables. */
        ALWAYS,
        /** Never: create it from the shipped DDL (META-INF/hoplock/jdbc/) with your migration tool. */
        NEVER
    }
}
