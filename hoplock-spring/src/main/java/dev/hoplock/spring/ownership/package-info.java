/**
 * One owner per key, in a Spring application: {@link dev.hoplock.spring.ownership.HoplockOwnership}, the bean to ask
 * "do I own this key?", which {@code @LeaderOnly(key = ...)} gates (the call runs in an
 * {@link dev.hoplock.spring.ownership.OwnershipScope}), the events of membership changes
 * ({@link dev.hoplock.spring.ownership.OwnershipChangedEvent}) and the Micrometer meters of the group (needs
 * Micrometer); the health contributor and the actuator endpoint read it too.
 *
 * <p>Nullness: every type, parameter and return value here is non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.hoplock.spring.ownership;

import org.jspecify.annotations.NullMarked;
