package dev.hoplock.spring.leader;

import dev.hoplock.core.election.Elector;

/**
 * Adjusts the builder of one election's elector after the {@code hoplock.*} properties were applied and before it is
 * validated and built, for settings that properties do not cover (a time source, executors). Every bean of this
 * type is called for every election, in {@link org.springframework.core.Ordered} order.
 */
@FunctionalInterface
public interface ElectorCustomizer {

    /** Customizes the builder of {@code election}. */
    void customize(String election, Elector.Builder builder);
}
