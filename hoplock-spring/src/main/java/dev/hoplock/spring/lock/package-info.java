/**
 * One holder per lock name, in a Spring application: {@link dev.hoplock.spring.lock.WithLock} and what it does when
 * the lock is held ({@link dev.hoplock.spring.lock.WhenLockHeld}); the gate that enforces it (advisor, attribute
 * source, interceptor with the minimum-hold rule, start-up validator); the lock of the running call
 * ({@link dev.hoplock.spring.lock.LockContextHolder}) and the refusal when it cannot be taken
 * ({@link dev.hoplock.spring.lock.LockNotTakenException}); and the Micrometer meters of {@code @WithLock} calls
 * (needs Micrometer).
 *
 * <p>Nullness: every type, parameter and return value here is non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.hoplock.spring.lock;

import org.jspecify.annotations.NullMarked;
