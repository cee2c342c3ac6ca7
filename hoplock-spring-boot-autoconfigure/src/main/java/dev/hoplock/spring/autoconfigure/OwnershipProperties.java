package dev.hoplock.spring.autoconfigure;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.convert.DurationUnit;

import java.time.Duration;
import java.time.temporal.ChronoUnit;

/**
 * The settings of per-key ownership ({@code hoplock.ownership.*}): the group this application's instances form, this
 * instance's member id, and the timing of its membership lease. Ownership is on only when {@code group} is set. The
 * membership lives in the store {@code hoplock.backend} selects (or the application's {@code Backend} bean), under
 * {@code <group>/registry} and {@code <group>/members/<member-id>}. Every duration unset keeps the core's default
 * (derived from the TTL, like an election's); a duration without a unit is in seconds.
 */
public class OwnershipProperties {

    /**
     * Name of the ownership group: the instances that share the keys, for example 'billing'. Setting it turns
     * per-key ownership on (the HoplockOwnership bean and @LeaderOnly(key = ...)). Lease-key characters only.
     */
    private @Nullable String group;

    /**
     * This instance's stable member id, the only thing hashed to place keys: a pod name or node id keeps keys in place
     * across restarts. Default: host:pid:random, new at every start. Two running instances must not share one.
     */
    private @Nullable String memberId;

    /** Where other members can reach this one (host:port, URL), shown to them; never hashed. Default: empty. */
    private String address = "";

    /**
     * How long this instance's membership lease lasts: a crashed member's keys move one to two TTLs after its last
     * renewal. At least 1s. Default: 30s.
     */
    @DurationUnit(ChronoUnit.SECONDS)
    private @Nullable Duration ttl;

    /** How often the membership lease is renewed and the registry read. Default: ttl/3. */
    @DurationUnit(ChronoUnit.SECONDS)
    private @Nullable Duration renew;

    /** How often the registry is read while something changes, and the retry delay. Default: ttl/15. */
    @DurationUnit(ChronoUnit.SECONDS)
    private @Nullable Duration poll;

    /** The longest wait for one request to the store. Default: the renew interval. */
    @DurationUnit(ChronoUnit.SECONDS)
    private @Nullable Duration requestTimeout;

    /** How long before the membership lease's end this instance stops acting on its keys. Default: ttl/10. */
    @DurationUnit(ChronoUnit.SECONDS)
    private @Nullable Duration safetyMargin;

    /**
     * On shutdown, the longest wait for running key work to stop and then for leaving the group; negative: never
     * leave (the keys move once the lease expired). Default: 2s.
     */
    @DurationUnit(ChronoUnit.SECONDS)
    private @Nullable Duration releaseTimeout;

    public @Nullable String getGroup() {
        return group;
    }

    public void setGroup(@Nullable String group) {
        this.group = group;
    }

    public @Nullable String getMemberId() {
        return memberId;
    }

    public void setMemberId(@Nullable String memberId) {
        this.memberId = memberId;
    }

    public String getAddress() {
        return address;
    }

    public void setAddress(String address) {
        this.address = address;
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

    @Override
    public String toString() {
        return "OwnershipProperties{group=" + group + ", memberId=" + memberId + ", ttl=" + ttl + "}";
    }
}
