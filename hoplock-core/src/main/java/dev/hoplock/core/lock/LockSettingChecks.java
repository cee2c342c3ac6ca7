package dev.hoplock.core.lock;

import dev.hoplock.core.InvalidSettingException;
import dev.hoplock.core.backend.LeaseKeys;
import dev.hoplock.core.election.ElectorSettings;

import java.time.Duration;
import java.util.Objects;

/**
 * The checks of {@link NamedLocks}' settings (its builder's) and of the TTL each call asks for: each returns the value
 * accepted or throws {@link InvalidSettingException} (a {@code NullPointerException} for null) saying what to change.
 */
final class LockSettingChecks {

    private LockSettingChecks() {
    }

    static String owner(String owner) {
        Objects.requireNonNull(owner, "owner");
        if (owner.isBlank()) {
            throw new InvalidSettingException("owner", LockProblems.blankOwner());
        }
        return owner;
    }

    static String keyPrefix(String keyPrefix) {
        Objects.requireNonNull(keyPrefix, "keyPrefix");
        if (!keyPrefix.isEmpty() && !keyPrefix.endsWith("/")) {
            throw new InvalidSettingException("keyPrefix", LockProblems.keyPrefixWithoutSlash(keyPrefix));
        }
        if (!keyPrefix.isEmpty()) {
            LeaseKeys.validate(keyPrefix + "x");
        }
        return keyPrefix;
    }

    static double safetyFraction(double fractionOfTtl) {
        if (!(fractionOfTtl >= 0 && fractionOfTtl <= 0.5)) {
            throw new InvalidSettingException("safetyMargin", LockProblems.safetyFraction(fractionOfTtl));
        }
        return fractionOfTtl;
    }

    static Duration positive(String name, Duration value) {
        Objects.requireNonNull(value, name);
        if (value.isNegative() || value.isZero()) {
            throw new InvalidSettingException(name, LockProblems.notPositive(name, value));
        }
        return value;
    }

    /** L7: a fair turn window: zero (none) or positive, at most {@link NamedLocks#MAX_TTL}. */
    static Duration turn(Duration turn) {
        Objects.requireNonNull(turn, "fairTurn");
        if (turn.isNegative() || turn.compareTo(NamedLocks.MAX_TTL) > 0) {
            throw new InvalidSettingException("fairTurn", LockProblems.invalidTurn(turn));
        }
        return turn;
    }

    /** A call's TTL: positive, at most {@link NamedLocks#MAX_TTL}, at least {@code minimum} (L6). */
    static void ttl(Duration ttl, Duration minimum, Duration requestTimeout, double safetyFraction) {
        Objects.requireNonNull(ttl, "ttl");
        if (ttl.isNegative() || ttl.isZero() || ttl.compareTo(NamedLocks.MAX_TTL) > 0) {
            throw new InvalidSettingException("ttl", LockProblems.invalidTtl(ttl));
        }
        ElectorSettings.atLeast("ttl", ttl, minimum, LockProblems.minimumTtl(minimum, requestTimeout,
                safetyFraction), LockProblems.minimumTtlFix());
    }
}
