/**
 * The elector: {@link dev.hoplock.core.Elector} elects at most one leader among processes sharing a lease key in a
 * store with compare-and-swap writes. Its safety argument (rules 0 to 7) is on {@link dev.hoplock.core.Elector}; each
 * rule lives in one package-private type that names it ({@code VerificationGate} 0, {@code LeaseTimes} and
 * {@code Leadership} 1 and 2, {@code RequestBook} 3, {@code TakeoverDecision}, {@code ObservationTracker} and
 * {@code DeletedRecordRule} 4, {@code UnknownWrites} 5, {@code Release} 6 and 7), driven by the state machine
 * {@code LeaseLoop}. Those types are internal: they are shared with other lease users of this package (named locks),
 * never part of the public API.
 *
 * <p>Nullness: no method accepts or returns {@code null} unless it is annotated {@code @Nullable}; optional results are
 * {@link java.util.Optional}, and a setting left unset takes its default (null never means "default").
 */
@NullMarked
package dev.hoplock.core;

import org.jspecify.annotations.NullMarked;
