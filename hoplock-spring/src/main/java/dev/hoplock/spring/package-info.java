/**
 * hoplock for plain Spring Framework: the elections registry ({@link dev.hoplock.spring.HoplockElections}), the
 * lease of the running {@code @LeaderOnly} call ({@link dev.hoplock.spring.LeaderContextHolder}), the refusal on a
 * non-leader ({@link dev.hoplock.spring.NotLeaderException}) and the extension points applied to every election. No
 * Spring Boot type is used in this module.
 *
 * <p>Nullness: every type, parameter and return value here is non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.hoplock.spring;

import org.jspecify.annotations.NullMarked;
