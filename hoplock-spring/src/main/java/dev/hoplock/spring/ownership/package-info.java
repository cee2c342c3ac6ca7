/**
 * Per-key ownership in a Spring application: {@link dev.hoplock.spring.ownership.HoplockOwnership}, the bean to ask
 * "do I own this key?", which {@code @LeaderOnly(key = ...)} gates, events, meters and the actuator read.
 */
@NullMarked
package dev.hoplock.spring.ownership;

import org.jspecify.annotations.NullMarked;
