/**
 * The annotation types only: {@link dev.hoplock.spring.annotation.LeaderOnly} and what it does on a non-leader
 * ({@link dev.hoplock.spring.annotation.OnNonLeader}). The runtime that enforces them is in
 * {@code dev.hoplock.spring.aop}.
 *
 * <p>Nullness: every type, parameter and return value here is non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.hoplock.spring.annotation;

import org.jspecify.annotations.NullMarked;
