/**
 * Internal, not API: may change in any release without notice.
 *
 * <p>What the annotation gates of hoplock ({@code @LeaderOnly}, {@code @WithLock}, {@code @Fenced}) share, written
 * once: the advisor and its pointcut ({@link dev.hoplock.spring.internal.gate.GateAdvisor}), the cache of what each
 * method's annotation resolves to ({@link dev.hoplock.spring.internal.gate.GateAttributeSource}), the start-up
 * validator's skeleton and the checks it makes alike for every gate
 * ({@link dev.hoplock.spring.internal.gate.GatedMethodValidator}), the per-thread context of a gated call
 * ({@link dev.hoplock.spring.internal.gate.GateContext}), when a method's work runs relative to its call
 * ({@link dev.hoplock.spring.internal.gate.CallStyle}) and what a call that does not run returns
 * ({@link dev.hoplock.spring.internal.gate.SkipValues}). Each gate's own rules stay in its package:
 * {@code dev.hoplock.spring.leader}, {@code .lock}, {@code .fencing}.
 *
 * <p>Nullness: every type, parameter and return value here is non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.hoplock.spring.internal.gate;

import org.jspecify.annotations.NullMarked;
