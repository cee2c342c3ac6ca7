/**
 * The elector: {@link dev.hoplock.core.Elector} elects at most one leader among processes sharing a lease key in a
 * store with compare-and-swap writes. Its safety argument (rules E0 to E7) is on {@link dev.hoplock.core.Elector}; each
 * rule lives in one package-private type that names it ({@code VerificationGate} E0, {@code LeaseTimes} and
 * {@code Leadership} E1 and E2, {@code LeaseWriter} the acquire write of E1 and E5, {@code RequestBook} E3,
 * {@code TakeoverDecision}, {@code ObservationTracker} and {@code DeletedRecordRule} E4, {@code UnknownWrites} E5,
 * {@code TakeoverDecision} and {@code Release} E6, {@code Release} and {@code LeaseLifecycle} E7), driven by the
 * state machine {@code LeaseLoop}. Those types are internal: they are shared with other lease users of this package
 * (named locks, whose additions L1 ... are defined in {@link dev.hoplock.core.lock}), and never part of the public API.
 *
 * <p>Nullness: no method accepts or returns {@code null} unless it is annotated {@code @Nullable}; optional results are
 * {@link java.util.Optional}, and a setting left unset takes its default (null never means "default").
 */
@NullMarked
package dev.hoplock.core;

import org.jspecify.annotations.NullMarked;
