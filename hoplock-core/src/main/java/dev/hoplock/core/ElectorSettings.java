package dev.hoplock.core;

import dev.hoplock.core.backend.LeaseKeys;

import java.time.Duration;
import java.util.Objects;

/**
 * The validated timing and identity settings of one elector.
 *
 * <p>Guarantees, checked at construction: {@code ttl > 0}; {@code 0 <= safetyMargin < ttl}; {@code 0 < renewInterval
 * < ttl - safetyMargin} (a renewal is attempted before the lease stops being usable); {@code 0 < pollInterval};
 * {@code requestTimeout > 0}; the key is valid ({@link LeaseKeys}); the owner is 1 to 256 printable characters.
 * A violation throws {@link InvalidSettingException} naming the setting and the fix.
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
 *                        stayed absent for a TTL: a handover then takes about a TTL instead of a poll
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
        positive("renewInterval", renewInterval, "for example ttl/3");
        positive("pollInterval", pollInterval, "for example ttl/15");
        positive("requestTimeout", requestTimeout, "for example the renew interval");
        Objects.requireNonNull(safetyMargin, "safetyMargin");
        Objects.requireNonNull(releaseTimeout, "releaseTimeout");
        if (safetyMargin.isNegative() || safetyMargin.compareTo(ttl) >= 0) {
            throw new InvalidSettingException("safetyMargin", "safetyMargin (" + safetyMargin + ") must be at least 0"
                    + " and shorter than ttl (" + ttl + "); the default is ttl/10");
        }
        Duration usable = ttl.minus(safetyMargin);
        if (renewInterval.compareTo(usable) >= 0) {
            throw new InvalidSettingException("renewInterval", "renewInterval (" + renewInterval + ") must be shorter"
                    + " than ttl (" + ttl + ") minus safetyMargin (" + safetyMargin + "), or the leader would stop before"
                    + " it renews; use ttl/3 or less");
        }
    }

    private static void positive(String name, Duration value, String hint) {
        Objects.requireNonNull(value, name);
        if (value.isZero() || value.isNegative()) {
            throw new InvalidSettingException(name, name + " must be positive, was " + value + " (" + hint + ")");
        }
    }
}
