package dev.hoplock.spring.autoconfigure;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.convert.DurationUnit;

import java.time.Duration;
import java.time.temporal.ChronoUnit;

/**
 * The settings of one election: the lease key, the owner id and the timing. One type serves both the defaults every
 * election inherits ({@code hoplock.ttl}, ... : {@link HoplockProperties} extends this class) and each named election
 * ({@code hoplock.elections.NAME.ttl}, ...), so a setting is declared once and merged in one place
 * ({@link #over(ElectionProperties)}).
 *
 * <p>Every field is nullable and null means "not set here": a named election inherits it from the defaults, and a
 * duration unset in both keeps the elector's default (derived from the TTL). A duration without a unit is in seconds.
 */
public class ElectionProperties {

    /**
     * Lease key of the election. Segments of letters, digits, '.', '_' and '-' separated by '/'. Default: 'default'
     * for hoplock.key (the election created when no hoplock.elections.* is configured), the election's name for
     * hoplock.elections.NAME.key.
     */
    private @Nullable String key;

    /**
     * The owner id written into every lease this election takes. Must be unique per process. Default: host:pid:random,
     * generated once per application context.
     */
    private @Nullable String owner;

    /**
     * How long a written lease lasts. Followers take over no earlier than one TTL after the leader's last renewal. At
     * least 1s. Default: 30s. A value without a unit is in seconds.
     */
    @DurationUnit(ChronoUnit.SECONDS)
    private @Nullable Duration ttl;

    /** How often the leader renews its lease. Default: ttl/3. Without a unit: seconds. */
    @DurationUnit(ChronoUnit.SECONDS)
    private @Nullable Duration renew;

    /**
     * How often a follower reads the lease, and the retry delay after a failed request. A released lease is taken
     * over within about one poll interval. Default: ttl/15. A value without a unit is in seconds.
     */
    @DurationUnit(ChronoUnit.SECONDS)
    private @Nullable Duration poll;

    /** The longest wait for one request to the store. Default: the renew interval. Without a unit: seconds. */
    @DurationUnit(ChronoUnit.SECONDS)
    private @Nullable Duration requestTimeout;

    /**
     * How long before the lease's end (on this process's monotonic clock) the leader stops leader work. Default:
     * ttl/10. A value without a unit is in seconds.
     */
    @DurationUnit(ChronoUnit.SECONDS)
    private @Nullable Duration safetyMargin;

    /**
     * On shutdown, the longest wait for leader-only work to stop and then for the release of the lease. Negative:
     * never release (the lease then expires after a TTL). Default: 2s. A value without a unit is in seconds.
     */
    @DurationUnit(ChronoUnit.SECONDS)
    private @Nullable Duration releaseTimeout;

    /**
     * Release by a conditional DELETE, as Go hoplock does, instead of writing an expired record. The generation then
     * restarts at 1 with the next leader. Default: false.
     */
    private @Nullable Boolean releaseByDelete;

    /**
     * A new instance holding, for each setting, this instance's value when set, else {@code defaults}' value. The one
     * place where an election inherits from {@code hoplock.*}.
     */
    ElectionProperties over(ElectionProperties defaults) {
        ElectionProperties merged = new ElectionProperties();
        merged.key = firstSet(key, defaults.key);
        merged.owner = firstSet(owner, defaults.owner);
        merged.ttl = firstSet(ttl, defaults.ttl);
        merged.renew = firstSet(renew, defaults.renew);
        merged.poll = firstSet(poll, defaults.poll);
        merged.requestTimeout = firstSet(requestTimeout, defaults.requestTimeout);
        merged.safetyMargin = firstSet(safetyMargin, defaults.safetyMargin);
        merged.releaseTimeout = firstSet(releaseTimeout, defaults.releaseTimeout);
        merged.releaseByDelete = firstSet(releaseByDelete, defaults.releaseByDelete);
        return merged;
    }

    private static <T> @Nullable T firstSet(@Nullable T own, @Nullable T inherited) {
        return own != null ? own : inherited;
    }

    public @Nullable String getKey() {
        return key;
    }

    public void setKey(@Nullable String key) {
        this.key = key;
    }

    public @Nullable String getOwner() {
        return owner;
    }

    public void setOwner(@Nullable String owner) {
        this.owner = owner;
    }

    public @Nullable Duration getTtl() {
        return ttl;
    }

    public void setTtl(@Nullable Duration ttl) {
        this.ttl = ttl;
    }

    public @Nullable Duration getRenew() {
        return renew;
    }

    public void setRenew(@Nullable Duration renew) {
        this.renew = renew;
    }

    public @Nullable Duration getPoll() {
        return poll;
    }

    public void setPoll(@Nullable Duration poll) {
        this.poll = poll;
    }

    public @Nullable Duration getRequestTimeout() {
        return requestTimeout;
    }

    public void setRequestTimeout(@Nullable Duration requestTimeout) {
        this.requestTimeout = requestTimeout;
    }

    public @Nullable Duration getSafetyMargin() {
        return safetyMargin;
    }

    public void setSafetyMargin(@Nullable Duration safetyMargin) {
        this.safetyMargin = safetyMargin;
    }

    public @Nullable Duration getReleaseTimeout() {
        return releaseTimeout;
    }

    public void setReleaseTimeout(@Nullable Duration releaseTimeout) {
        this.releaseTimeout = releaseTimeout;
    }

    public @Nullable Boolean getReleaseByDelete() {
        return releaseByDelete;
    }

    public void setReleaseByDelete(@Nullable Boolean releaseByDelete) {
        this.releaseByDelete = releaseByDelete;
    }

    @Override
    public String toString() {
        return "key=" + key + ", owner=" + owner + ", ttl=" + ttl + ", renew=" + renew + ", poll=" + poll
                + ", requestTimeout=" + requestTimeout + ", safetyMargin=" + safetyMargin + ", releaseTimeout="
                + releaseTimeout + ", releaseByDelete=" + releaseByDelete;
    }
}
