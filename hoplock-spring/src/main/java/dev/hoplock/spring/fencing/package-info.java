/**
 * Fencing tokens checked in the writer's transaction: {@link dev.hoplock.spring.fencing.Fenced}, the advisor that runs
 * a {@link dev.hoplock.core.fencing.Fence} check inside the method's Spring transaction, the source of the token it
 * checks ({@link dev.hoplock.spring.fencing.FencingTokenSource}; one per gate: {@code @LeaderOnly}'s lease generation,
 * {@code @WithLock}'s lock token), the start-up validator, and the JDBC fence bound to the current Spring transaction
 * ({@link dev.hoplock.spring.fencing.TransactionalJdbcFence}). Needs {@code spring-tx};
 * the JDBC fence also {@code spring-jdbc} and {@code hoplock-jdbc}.
 *
 * <p>Nullness: every type, parameter and return value here is non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.hoplock.spring.fencing;

import org.jspecify.annotations.NullMarked;
