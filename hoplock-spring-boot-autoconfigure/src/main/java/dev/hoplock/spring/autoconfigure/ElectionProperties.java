package dev.hoplock.spring.autoconfigure;

import org.jspecify.annotations.Nullable;

/**
 * The settings of one election: the lease key, the owner id and the timing (the {@link LeaseTimingProperties} this
 * class extends, shared with the ownership membership). One type serves both the defaults every
 * election inherits ({@code hoplock.ttl}, ... : {@link HoplockProperties} extends this class) and each named election
 * ({@code hoplock.elections.NAME.ttl}, ...), so a setting is declared once and merged in one place
 * ({@link #over(ElectionProperties)}).
 *
 * <p>Every field is nullable and null means "not set here": a named election inherits it from the defaults, and a
 * duration unset in both keeps the elector's default (derived from the TTL). A duration without a unit is in seconds.
 */
public class ElectionProperties extends LeaseTimingProperties {

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
        merged.inheritTiming(this, defaults);
        merged.releaseByDelete = firstSet(releaseByDelete, defaults.releaseByDelete);
        return merged;
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

    public @Nullable Boolean getReleaseByDelete() {
        return releaseByDelete;
    }

    public void setReleaseByDelete(@Nullable Boolean releaseByDelete) {
        this.releaseByDelete = releaseByDelete;
    }

    @Override
    public String toString() {
        return "key=" + key + ", owner=" + owner + ", ttl=" + getTtl() + ", renew=" + getRenew() + ", poll="
                + getPoll() + ", requestTimeout=" + getRequestTimeout() + ", safetyMargin=" + getSafetyMargin()
                + ", releaseTimeout=" + getReleaseTimeout() + ", releaseByDelete=" + releaseByDelete;
    }
}
