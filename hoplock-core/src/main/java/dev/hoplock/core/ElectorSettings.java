package dev.hoplock.core;

import dev.hoplock.core.backend.LeaseKeys;
import dev.hoplock.core.time.HumanDurations;

import java.time.Duration;
import java.util.Objects;

/**
 * The validated timing and identity settings of one elector.
 *
 * <p>Guarantees, checked at construction: {@code 0 < ttl <= 7 days} ({@link #MAX_DURATION}); {@code 0 <= safetyMargin
 * < ttl}; {@code 0 < renewInterval < ttl - safetyMargin} (a renewal is attempted before the lease stops being usable);
 * {@code 0 < pollInterval <= ttl}; {@code 0 < requestTimeout <= 7 days}; {@code releaseTimeout <= 7 days}; the key is
 * valid ({@link LeaseKeys}); the owner is 1 to 256 printable characters. So no timer of the elector can overflow. A
 * violation throws {@link InvalidSettingException} naming the setting, the value, the limit and the fix.
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

    /** Go hoplock's default TTL. */
    public static final Duration DEFAULT_TTL = Duration.ofSeconds(30);
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
            throw new InvalidSettingException("key", e.getMessage());
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
        Objects.requireNonNull(safetyMargin, "safetyMargin");
        Objects.requireNonNull(releaseTimeout, "releaseTimeout");
        atMost("releaseTimeout", releaseTimeout, MAX_DURATION, "7 days", "the default is 2s; negative: do not release");
        if (safetyMargin.isNegative() || safetyMargin.compareTo(ttl) >= 0) {
            throw new InvalidSettingException("safetyMargin", "safetyMargin (" + format(safetyMargin) + ") must be at"
                    + " least 0 and shorter than ttl (" + format(ttl) + "); the default is ttl/10");
        }
        Duration usable = ttl.minus(safetyMargin);
        if (renewInterval.compareTo(usable) >= 0) {
            throw new InvalidSettingException("renewInterval", "renewInterval (" + format(renewInterval) + ") must be"
                    + " shorter than ttl (" + format(ttl) + ") minus safetyMargin (" + format(safetyMargin) + "), or the"
                    + " leader would stop before it renews; use ttl/3 or less");
        }
    }

    private static void positive(String name, Duration value, String hint) {
        Objects.requireNonNull(value, name);
        if (value.isZero() || value.isNegative()) {
            throw new InvalidSettingException(name, name + " must be positive, was " + format(value) + " (" + hint
                    + ")");
        }
    }

    private static void atMost(String name, Duration value, Duration limit, String limitText, String hint) {
        if (value.compareTo(limit) > 0) {
            throw new InvalidSettingException(name, name + " must be at most " + limitText + ", was " + format(value)
                    + " (" + hint + ")");
        }
    }

    private static String format(Duration duration) {
        return HumanDurations.format(duration);
    }
}
