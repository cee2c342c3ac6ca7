package dev.hoplock.spring.autoconfigure;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.convert.DurationUnit;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.function.Consumer;

/**
 * The timing of one lease, the same six settings wherever a lease is configured: an election's
 * ({@code hoplock.ttl}, {@code hoplock.elections.NAME.ttl}, ...: {@link ElectionProperties}) and an ownership
 * membership's ({@code hoplock.ownership.ttl}, ...: {@link OwnershipProperties}). They bind under the same names
 * ({@code ttl}, {@code renew}, {@code poll}, {@code request-timeout}, {@code safety-margin}, {@code release-timeout}),
 * reach the core's builders the same way ({@link #applyTimingTo}) and are checked by the same rules there.
 *
 * <p>Every field is nullable and null means "not set here": the core's builder then keeps its default, derived from
 * the TTL. A duration without a unit is in seconds. The field comments below are the election's descriptions in the
 * configuration metadata; the membership's own are in {@code META-INF/additional-spring-configuration-metadata.json}.
 */
public class LeaseTimingProperties {

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
     * Sets each timing here to {@code own}'s value when {@code own} sets it, else to {@code inherited}'s (which may be
     * unset too).
     */
    void inheritTiming(LeaseTimingProperties own, LeaseTimingProperties inherited) {
        ttl = firstSet(own.ttl, inherited.ttl);
        renew = firstSet(own.renew, inherited.renew);
        poll = firstSet(own.poll, inherited.poll);
        requestTimeout = firstSet(own.requestTimeout, inherited.requestTimeout);
        safetyMargin = firstSet(own.safetyMargin, inherited.safetyMargin);
        releaseTimeout = firstSet(own.releaseTimeout, inherited.releaseTimeout);
    }

    /**
     * Passes each timing that is set to the builder method given for it (the core's {@code ttl},
     * {@code renewInterval}, {@code pollInterval}, {@code requestTimeout}, {@code safetyMargin} and
     * {@code releaseTimeout}); an unset one is not passed, so the builder keeps its default.
     */
    void applyTimingTo(Consumer<Duration> ttlSetter, Consumer<Duration> renewIntervalSetter,
            Consumer<Duration> pollIntervalSetter, Consumer<Duration> requestTimeoutSetter,
            Consumer<Duration> safetyMarginSetter, Consumer<Duration> releaseTimeoutSetter) {
        ifSet(ttl, ttlSetter);
        ifSet(renew, renewIntervalSetter);
        ifSet(poll, pollIntervalSetter);
        ifSet(requestTimeout, requestTimeoutSetter);
        ifSet(safetyMargin, safetyMarginSetter);
        ifSet(releaseTimeout, releaseTimeoutSetter);
    }

    static <T> @Nullable T firstSet(@Nullable T own, @Nullable T inherited) {
        return own != null ? own : inherited;
    }

    /** Calls {@code setter} with {@code value} when it is set. Not Boot's PropertyMapper: Boot 3 passes nulls on. */
    static <T> void ifSet(@Nullable T value, Consumer<T> setter) {
        if (value != null) {
            setter.accept(value);
        }
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
}
