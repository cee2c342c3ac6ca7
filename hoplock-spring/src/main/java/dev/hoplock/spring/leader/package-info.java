/**
 * One leader per election, in a Spring application: {@link dev.hoplock.spring.leader.LeaderOnly} and what it does on
 * a non-leader ({@link dev.hoplock.spring.leader.OnNonLeader}); the gate that enforces it (advisor, attribute source,
 * interceptor, and the start-up validator that refuses methods the gate cannot make safe); the lease of the running
 * call ({@link dev.hoplock.spring.leader.LeaderContextHolder}) and the refusal on a non-leader
 * ({@link dev.hoplock.spring.leader.NotLeaderException}); the electors of the application
 * ({@link dev.hoplock.spring.leader.HoplockElections}), whether it campaigns
 * ({@link dev.hoplock.spring.leader.Candidacy}) and the extension points applied to every election
 * ({@link dev.hoplock.spring.leader.BackendDecorator}, {@link dev.hoplock.spring.leader.ElectorCustomizer}); the
 * leadership events as Spring application events ({@link dev.hoplock.spring.leader.ElectionApplicationEvent} and its
 * subclasses); and the Micrometer meters of every election (needs Micrometer). The keyed form,
 * {@code @LeaderOnly(key = ...)}, runs through the same gate on an ownership claim
 * ({@code dev.hoplock.spring.ownership}).
 *
 * <p>Nullness: every type, parameter and return value here is non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.hoplock.spring.leader;

import org.jspecify.annotations.NullMarked;
