/**
 * hoplock for plain Spring Framework, one package per gate: {@code dev.hoplock.spring.leader} (one leader:
 * {@code @LeaderOnly}, the elections registry, leadership events and meters), {@code dev.hoplock.spring.lock} (one
 * holder per lock name: {@code @WithLock}), {@code dev.hoplock.spring.ownership} (one owner per key:
 * {@code @LeaderOnly(key = ...)}, the ownership bean, its events and meters) and {@code dev.hoplock.spring.fencing}
 * (fencing tokens checked in the writer's transaction: {@code @Fenced}), over what the gates share in
 * {@code dev.hoplock.spring.internal.gate} (internal). This package holds what every gate reports a misconfiguration
 * with: {@link dev.hoplock.spring.HoplockConfigurationException}. No Spring Boot type is used in this module.
 *
 * <p>Nullness: every type, parameter and return value here is non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.hoplock.spring;

import org.jspecify.annotations.NullMarked;
