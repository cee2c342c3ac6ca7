/**
 * Spring Boot auto-configuration of hoplock: the {@code hoplock.*} properties, the conditions, the failure analysis
 * and the auto-configurations, which only create and wire the types of {@code hoplock-spring}.
 *
 * <p>Nullness: every type, parameter and return value here is non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.hoplock.spring.autoconfigure;

import org.jspecify.annotations.NullMarked;
