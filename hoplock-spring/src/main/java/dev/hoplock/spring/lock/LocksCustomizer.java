package dev.hoplock.spring.lock;

import dev.hoplock.core.lock.NamedLocks;

/**
 * Adjusts the builder of the starter's named locks (the {@code Locks} bean behind {@code @WithLock}) after the
 * {@code hoplock.locks.*} properties were applied and before it is validated and built, for settings that properties
 * do not cover (a time source and scheduler, executors): the counterpart of
 * {@link dev.hoplock.spring.leader.ElectorCustomizer} for locks. Every bean of this type is called, in
 * {@link org.springframework.core.Ordered} order; a setting it makes invalid fails the start as a property would.
 */
@FunctionalInterface
public interface LocksCustomizer {

    /** Customizes the builder of the named locks. */
    void customize(NamedLocks.Builder builder);
}
