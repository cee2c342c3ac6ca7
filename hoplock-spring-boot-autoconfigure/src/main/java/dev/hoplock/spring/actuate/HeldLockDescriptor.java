package dev.hoplock.spring.actuate;

import dev.hoplock.core.lock.LockHandle;

import java.time.Duration;
import java.time.Instant;

/**
 * One named lock this instance holds, as the {@code hoplock} endpoint shows it: read from local state only.
 *
 * @param name      the lock's name
 * @param token     its fencing token
 * @param expiresAt the expiry written into its record (this instance's wall clock)
 * @param timeLeft  until this instance stops counting it as held (its local deadline, before {@code expiresAt})
 */
public record HeldLockDescriptor(String name, long token, Instant expiresAt, Duration timeLeft) {

    static HeldLockDescriptor of(LockHandle lock) {
        return new HeldLockDescriptor(lock.name(), lock.token(), lock.expiresAt(), lock.timeLeft());
    }
}
