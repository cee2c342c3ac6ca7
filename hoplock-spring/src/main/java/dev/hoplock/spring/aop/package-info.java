/**
 * The {@code @LeaderOnly} gate: advisor, pointcut, interceptor and the start-up validator that refuses methods the gate
 * cannot make safe.
 *
 * <p>Nullness: every type, parameter and return value here is non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.hoplock.spring.aop;

import org.jspecify.annotations.NullMarked;
