package dev.hoplock.spring.lock;

import dev.hoplock.core.lock.AcquireResult;
import org.jspecify.annotations.Nullable;

/**
 * Thrown by a {@code @WithLock} method in {@code WhenLockHeld.THROW} mode when its lock could not be taken: held by
 * another owner, still held by a call of this instance, or the store gave no usable answer. The message names the
 * lock, the method and the holder the store showed; it contains no secrets.
 */
public class LockNotTakenException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String lockName;
    private final transient @Nullable AcquireResult answer;

    public LockNotTakenException(String lockName, String message, @Nullable AcquireResult answer) {
        super(message);
        this.lockName = lockName;
        this.answer = answer;
    }

    /** The name of the lock that was not taken. */
    public String lockName() {
        return lockName;
    }

    /** The store's answer; null when the lock was refused because a call of this instance holds it. */
    public @Nullable AcquireResult answer() {
        return answer;
    }
}
