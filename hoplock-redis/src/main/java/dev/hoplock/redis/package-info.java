/**
 * The Redis store: {@link dev.hoplock.redis.RedisBackend}, built with {@link dev.hoplock.redis.RedisBackendBuilder},
 * over Lettuce. Each lease is one Redis hash under a key prefix; create, swap and delete are Lua scripts on a random
 * 128-bit version; the server's durability is verified and reported.
 *
 * <p>Nullness: every type, parameter and return value here is non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.hoplock.redis;

import org.jspecify.annotations.NullMarked;
