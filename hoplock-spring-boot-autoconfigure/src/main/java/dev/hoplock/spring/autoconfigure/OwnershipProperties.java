package dev.hoplock.spring.autoconfigure;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The settings of per-key ownership ({@code hoplock.ownership.*}): the group this application's instances form, this
 * instance's member id, and the timing of its membership lease (the {@link LeaseTimingProperties} this class extends:
 * the same settings as an election's, described for the membership in
 * {@code META-INF/additional-spring-configuration-metadata.json}). Ownership is on only when {@code group} is set. The
 * membership lives in the store {@code hoplock.backend} selects (or the application's {@code Backend} bean), under
 * {@code <group>/registry} and {@code <group>/members/<member-id>}. Every duration unset keeps the core's default
 * (derived from the TTL, like an election's); a duration without a unit is in seconds. Owned by
 * {@link HoplockOwnershipAutoConfiguration}.
 */
@ConfigurationProperties("hoplock.ownership")
public class OwnershipProperties extends LeaseTimingProperties {

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

    @Override
    public String toString() {
        return "OwnershipProperties{group=" + group + ", memberId=" + memberId + ", ttl=" + getTtl() + "}";
    }
}
