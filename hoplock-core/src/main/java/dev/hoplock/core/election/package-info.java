/**
 * The elector: {@link dev.hoplock.core.election.Elector} elects at most one leader among processes sharing a lease key
 * in a store with compare-and-swap writes. Its safety argument (rules 0 to 7) is on
 * {@link dev.hoplock.core.election.Elector}; each rule lives in one type that names it ({@code VerificationGate} 0,
 * {@code LeaseTimes} and {@code Leadership} 1 and 2, {@code RequestBook} 3, {@code TakeoverDecision},
 * {@code ObservationTracker} and {@code DeletedRecordRule} 4, {@code UnknownWrites} 5, {@code Release} 6 and 7),
 * driven by the state machine {@code LeaseLoop}. Those types are internal: the elector-only ones are package-private
 * here, the ones shared with the other lease users (named locks, ownership) live in
 * {@code dev.hoplock.core.internal.lease}; none is part of the public API.
 *
 * <p>Nullness: no method accepts or returns {@code null} unless it is annotated {@code @Nullable}; optional results are
 * {@link java.util.Optional}, and a setting left unset takes its default (null never means "default").
 */
@NullMarked
package dev.hoplock.core.election;

import org.jspecify.annotations.NullMarked;
