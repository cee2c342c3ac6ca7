/**
 * Micrometer Observations (traces) of hoplock: every store request ({@link dev.hoplock.spring.observation.ObservedBackend}),
 * every term of a lease held here ({@link dev.hoplock.spring.observation.LeaseObservations}), every membership change
 * of the ownership group ({@link dev.hoplock.spring.observation.MembershipObservations}), and, through the gates,
 * every {@code @WithLock} and {@code @LeaderOnly} call that ran. The names and keys are in
 * {@link dev.hoplock.spring.observation.HoplockObservations}. Only low-cardinality values (store kind, primitive,
 * configured names, operation, outcome, method) are low-cardinality keys; no lease key, lock name or ownership key is
 * ever recorded, and nothing here carries a secret.
 *
 * <p>Nullness: every type, parameter and return value here is non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.hoplock.spring.observation;

import org.jspecify.annotations.NullMarked;
