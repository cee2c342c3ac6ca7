/**
 * The Actuator parts, which need Spring Boot's types: the {@code hoplock} health contributor and the {@code hoplock}
 * endpoint.
 *
 * <p>Nullness: every type, parameter and return value here is non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.hoplock.spring.actuate;

import org.jspecify.annotations.NullMarked;
