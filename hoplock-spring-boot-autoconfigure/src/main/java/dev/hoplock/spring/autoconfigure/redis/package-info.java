/**
 * The Redis store in a Spring Boot application, {@code hoplock.backend=redis}: its configuration
 * ({@link dev.hoplock.spring.autoconfigure.redis.RedisBackendConfiguration}), its settings {@code hoplock.redis.*}
 * ({@link dev.hoplock.spring.autoconfigure.redis.RedisProperties}), the reading of the application's Lettuce
 * connection factory (Spring Data Redis) and the building of the store. Only this package of the auto-configuration
 * refers to {@code dev.hoplock:hoplock-redis}, and nothing here is loaded without it.
 *
 * <p>Nullness: every type, parameter and return value here is non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.hoplock.spring.autoconfigure.redis;

import org.jspecify.annotations.NullMarked;
