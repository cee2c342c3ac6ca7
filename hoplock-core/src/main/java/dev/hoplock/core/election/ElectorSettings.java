package dev.hoplock.core.election;

import dev.hoplock.core.InvalidSettingException;
import dev.hoplock.core.OwnerIds;
import dev.hoplock.core.backend.LeaseKeys;
import dev.hoplock.core.time.HumanDurations;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.Objects;

/**
 * The validated timing and identity settings of one elector.
 *
 * <p>Guarantees, checked at construction: {@code 0 < ttl <= 7 days} ({@link #MAX_DURATION}); {@code 0 <= safetyMargin
 * < ttl}; {@code 0 < renewInterval < ttl - safetyMargin} (a renewal is attempted before the lease stops being usable);
 * {@code 0 < pollInterval <= ttl}; {@code 0 < requestTimeout <= 7 days}; {@code releaseTimeout <= 7 days}; the key is
 * valid ({@link LeaseKeys}); the owner is 1 to 256 printable characters. So no timer of the elector can overflow. A
 * violation throws {@link InvalidSettingException} naming the setting, the value, the limit and the fix; for a
 * duration, {@link InvalidSettingException#rejectedValue()} and {@link InvalidSettingException#limit()} carry them as
 * {@link Duration}s.
 *
 * <p>Defaults live in one place, {@link Builder} ({@link #builder(String)}): TTL {@value #DEFAULT_TTL_SECONDS} s, renew
 * TTL/3, poll TTL/15, request timeout the renew interval, safety margin TTL/10, release timeout 2 s, as Go hoplock.
 * Configuration layers (the Spring Boot starter) take their defaults from here rather than repeating them.
 *
 * @param key            the lease key in the store
 * @param owner          this process's unique id, written into the record
 * @param ttl            how long a written lease lasts
 * @param renewInterval  how often the leader renews
 * @param pollInterval   how often a follower reads the record, and how soon a failed request is retried
 * @param requestTimeout the longest wait for one store request (the leader also never waits past its deadline)
 * @param safetyMargin   how long before the lease's end (on the local monotonic clock) the leader stops work
 * @param releaseTimeout the longest wait for the release on stop; negative: do not release
 * @param releaseByDelete release by a conditional DELETE (as Go hoplock does) instead of writing an expired record;
 *                        a later create then restarts the generation at 1. A follower cannot tell such a release from
 *                        a deletion outside hoplock, so one that saw the lease held takes the key only after it has
 *                        stayed absent for a TTL and the last seen {@code expires_at} has passed: a handover then
 *                        takes about a TTL instead of a poll
 */
public record ElectorSettings(
        String key,
        String owner,
        Duration ttl,
        Duration renewInterval,
        Duration pollInterval,
        Duration requestTimeout,
        Duration safetyMargin,
        Duration releaseTimeout,
        boolean releaseByDelete) {

    /** Go hoplock's default TTL in seconds. */
    public static final long DEFAULT_TTL_SECONDS = 30;
    /** Go hoplock's default TTL. */
    public static final Duration DEFAULT_TTL = Duration.ofSeconds(DEFAULT_TTL_SECONDS);
    /** Go hoplock's default release timeout. */
    public static final Duration DEFAULT_RELEASE_TIMEOUT = Duration.ofSeconds(2);
    /** The longest TTL, request timeout and release timeout: long enough for any lease, far from any overflow. */
    public static final Duration MAX_DURATION = Duration.ofDays(7);

    public ElectorSettings {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(owner, "owner");
        try {
            LeaseKeys.validate(key);
        } catch (IllegalArgumentException e) {
            throw new InvalidSettingException("key", Objects.requireNonNull(e.getMessage(), "LeaseKeys states why"));
        }
        if (owner.isEmpty() || owner.length() > 256 || owner.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
            throw new InvalidSettingException("owner", "owner must be 1 to 256 printable characters and unique per"
                    + " process; leave it unset to get host:pid:random");
        }
        positive("ttl", ttl, "the lease duration, for example 30s");
        atMost("ttl", ttl, MAX_DURATION, "7 days", "the lease duration, for example 30s");
        positive("renewInterval", renewInterval, "for example ttl/3");
        positive("pollInterval", pollInterval, "for example ttl/15");
        atMost("pollInterval", pollInterval, ttl, "ttl (" + format(ttl) + ")", "for example ttl/15");
        positive("requestTimeout", requestTimeout, "for example the renew interval");
        atMost("requestTimeout", requestTimeout, MAX_DURATION, "7 days",
                "for example the renew interval; a leader's request never outlasts its lease anyway");
        required("safetyMargin", safetyMargin);
        required("releaseTimeout", releaseTimeout);
        atMost("releaseTimeout", releaseTimeout, MAX_DURATION, "7 days", "the default is 2s; negative: do not release");
        if (safetyMargin.isNegative() || safetyMargin.compareTo(ttl) >= 0) {
            throw new InvalidSettingException("safetyMargin", safetyMargin, ttl,
                    "must be at least 0 and shorter than ttl", "safetyMargin (" + format(safetyMargin) + ") must be at"
                    + " least 0 and shorter than ttl (" + format(ttl) + "); the default is ttl/10");
        }
        Duration usable = ttl.minus(safetyMargin);
        if (renewInterval.compareTo(usable) >= 0) {
            throw new InvalidSettingException("renewInterval", renewInterval, usable,
                    "must be shorter than ttl minus safetyMargin, or the leader would stop before it renews",
                    "renewInterval (" + format(renewInterval) + ") must be shorter than ttl (" + format(ttl) + ") minus"
                    + " safetyMargin (" + format(safetyMargin) + "), or the leader would stop before it renews; use"
                    + " ttl/3 or less");
        }
    }

    /** Starts the settings of an elector on lease {@code key}, with the defaults of {@link Builder}. */
    public static Builder builder(String key) {
        return new Builder(key);
    }

    /** The default renew interval for {@code ttl}: a third of it. */
    public static Duration defaultRenewInterval(Duration ttl) {
        return ttl.dividedBy(3);
    }

    /** The default poll interval for {@code ttl}: a fifteenth of it. */
    public static Duration defaultPollInterval(Duration ttl) {
        return ttl.dividedBy(15);
    }

    /** The default safety margin for {@code ttl}: a tenth of it. */
    public static Duration defaultSafetyMargin(Duration ttl) {
        return ttl.dividedBy(10);
    }

    private static Duration required(String name, @Nullable Duration value) {
        if (value == null) {
            throw new InvalidSettingException(name, null, null, "must be set", name + " must be set; leave it unset"
                    + " on the builder to get its default");
        }
        return value;
    }

    private static void positive(String name, @Nullable Duration setting, String hint) {
        Duration value = required(name, setting);
        if (value.isZero() || value.isNegative()) {
            throw new InvalidSettingException(name, value, null, "must be positive", name + " must be"
                    + " positive, was " + format(value) + " (" + hint + ")");
        }
    }

    /**
     * The one check that a duration setting reaches its lower bound, shared with the named locks' TTL ({@link
     * NamedLocks#minimumTtl()}): an {@link InvalidSettingException} with the setting, the value and the bound as
     * fields, and a message naming all three and the fix ({@code hint}).
     */
    public static void atLeast(String name, Duration value, Duration limit, String limitText, String hint) {
        if (value.compareTo(limit) < 0) {
            throw new InvalidSettingException(name, value, limit, "must be at least " + limitText, name + " must be"
                    + " at least " + limitText + ", was " + format(value) + " (" + hint + ")");
        }
    }

    private static void atMost(String name, Duration value, Duration limit, String limitText, String hint) {
        if (value.compareTo(limit) > 0) {
            throw new InvalidSettingException(name, value, limit, "must be at most " + limitText, name + " must be"
                    + " at most " + limitText + ", was " + format(value) + " (" + hint + ")");
        }
    }

    private static String format(Duration duration) {
        return HumanDurations.format(duration);
    }

    /**
     * Builds {@link ElectorSettings}: the one place where the defaults, and the timing derived from the TTL, are
     * decided. An unset duration follows the TTL: renew TTL/3, poll TTL/15, safety margin TTL/10, request timeout the
     * renew interval; an unset owner is generated once per builder ({@code host:pid:random}), so repeated
     * {@link #build()} calls agree. Null is never a value: every setter refuses it with an
     * {@link InvalidSettingException}; leave a setting unset to get its default.
     */
    public static final class Builder {
        private final String key;
        private @Nullable String owner;
        /** Generated once per builder, so that every {@link #build()} agrees. */
        private @Nullable String generatedOwner;
        private Duration ttl = DEFAULT_TTL;
        private @Nullable Duration renewInterval;
        private @Nullable Duration pollInterval;
        private @Nullable Duration requestTimeout;
        private @Nullable Duration safetyMargin;
        private Duration releaseTimeout = DEFAULT_RELEASE_TIMEOUT;
        private boolean releaseByDelete;

        private Builder(String key) {
            this.key = Objects.requireNonNull(key, "key");
        }

        /** This process's unique id; default {@code host:pid:random}. */
        public Builder owner(String owner) {
            this.owner = set("owner", owner);
            return this;
        }

        /** Lease duration; default 30 s. */
        public Builder ttl(Duration ttl) {
            this.ttl = set("ttl", ttl);
            return this;
        }

        /** How often the leader renews; default TTL/3. */
        public Builder renewInterval(Duration renewInterval) {
            this.renewInterval = set("renewInterval", renewInterval);
            return this;
        }

        /** How often a follower looks, and the retry delay after a failure; default TTL/15. */
        public Builder pollInterval(Duration pollInterval) {
            this.pollInterval = set("pollInterval", pollInterval);
            return this;
        }

        /** Longest wait for one request; default the renew interval. */
        public Builder requestTimeout(Duration requestTimeout) {
            this.requestTimeout = set("requestTimeout", requestTimeout);
            return this;
        }

        /** How long before the lease's end the leader stops work; default TTL/10. */
        public Builder safetyMargin(Duration safetyMargin) {
            this.safetyMargin = set("safetyMargin", safetyMargin);
            return this;
        }

        /** Longest wait for the release on close; negative: skip the release. Default 2 s. */
        public Builder releaseTimeout(Duration releaseTimeout) {
            this.releaseTimeout = set("releaseTimeout", releaseTimeout);
            return this;
        }

        /** Release by conditional delete, as Go hoplock does (see {@link ElectorSettings#releaseByDelete()}). */
        public Builder releaseByDelete(boolean releaseByDelete) {
            this.releaseByDelete = releaseByDelete;
            return this;
        }

        /** The settings with every default applied, validated. */
        public ElectorSettings build() {
            Duration renew = renewInterval != null ? renewInterval : defaultRenewInterval(ttl);
            Duration poll = pollInterval != null ? pollInterval : defaultPollInterval(ttl);
            if (owner == null && generatedOwner == null) {
                generatedOwner = OwnerIds.generate();
            }
            return new ElectorSettings(key, owner != null ? owner : Objects.requireNonNull(generatedOwner), ttl,
                    renew, poll, requestTimeout != null ? requestTimeout : renew,
                    safetyMargin != null ? safetyMargin : defaultSafetyMargin(ttl), releaseTimeout, releaseByDelete);
        }

        private static <T> T set(String name, @Nullable T value) {
            if (value == null) {
                throw new InvalidSettingException(name, null, null, "must not be null",
                        name + " must not be null; leave it unset to get its default");
            }
            return value;
        }
    }
}
