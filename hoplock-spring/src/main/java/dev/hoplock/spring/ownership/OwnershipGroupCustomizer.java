package dev.hoplock.spring.ownership;

import dev.hoplock.core.ownership.OwnershipGroup;

/**
 * Adjusts the builder of the starter's ownership group member ({@code hoplock.ownership.group}) after the
 * {@code hoplock.ownership.*} properties were applied and before it is validated and built, for settings that
 * properties do not cover (a time source and scheduler, executors): the counterpart of
 * {@link dev.hoplock.spring.leader.ElectorCustomizer} for per-key ownership. Every bean of this type is called, in
 * {@link org.springframework.core.Ordered} order; a setting it makes invalid fails the start as a property would.
 */
@FunctionalInterface
public interface OwnershipGroupCustomizer {

    /** Customizes the builder of this instance's member of {@code group}. */
    void customize(String group, OwnershipGroup.Builder builder);
}
