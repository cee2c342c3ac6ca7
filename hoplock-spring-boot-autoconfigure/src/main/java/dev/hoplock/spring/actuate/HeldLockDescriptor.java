package dev.hoplock.spring.actuate;

import dev.hoplock.core.lock.LockHandle;
import dev.hoplock.core.time.HumanDurations;

/**
 * One named lock this instance holds, as the {@code hoplock} endpoint shows it: read from local state only.
 *
 * <p>Guarantees: like every duration the {@code hoplock} endpoint and the health details show, {@code timeLeft} is
 * in the one human form of {@link HumanDurations} ({@code 4.464s}, {@code 2m30s}), never ISO-8601
 * ({@code PT4.464S}), and every instant is ISO-8601 text.
 *
 * @param name      the lock's name
 * @param token     its fencing token
 * @param expiresAt the expiry written into its record (this instance's wall clock), ISO-8601
 * @param timeLeft  until this instance stops counting it as held (its local deadline, before {@code expiresAt}), in
 *                  the form of {@link HumanDurations}
 */
public record HeldLockDescriptor(String name, long token, String expiresAt, String timeLeft) {

    static HeldLockDescriptor of(LockHandle lock) {
        return new HeldLockDescriptor(lock.name(), lock.token(), lock.expiresAt().toString(),
                HumanDurations.format(lock.timeLeft()));
    }
}
