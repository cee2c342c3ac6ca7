/**
 * Internal, not an API (the module does not export it): the lease rules that the elector
 * ({@link dev.hoplock.core.election}), the named locks ({@link dev.hoplock.core.lock}) and ownership
 * ({@link dev.hoplock.core.ownership}) share, one small type per rule of the safety argument on
 * {@link dev.hoplock.core.election.Elector}: {@link LeaseTimes} (rules 1 and 2: validity anchored before the write),
 * {@link RequestBook} (rule 3: one request at a time, each bounded), {@link TakeoverDecision} with
 * {@link ObservationTracker}, {@link Observation} and {@code DeletedRecordRule} (rule 4: takeover only after local
 * observation), {@link UnknownWrites} (rule 5: unknown outcomes), and the {@link Term} of a holding with its
 * {@link Scope}s (work told of the loss). {@link ExpiryWitness} applies rule 4 to another member's lease for
 * ownership. Each type's Javadoc says which rule it is; a type is public only because another core package uses it.
 *
 * <p>Nullness: no method accepts or returns {@code null} unless it is annotated {@code @Nullable}.
 */
@NullMarked
package dev.hoplock.core.internal.lease;

import org.jspecify.annotations.NullMarked;
