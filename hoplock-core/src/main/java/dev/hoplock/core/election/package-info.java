/**
 * The elector: {@link dev.hoplock.core.election.Elector} elects at most one leader among processes sharing a lease key
 * in a store with compare-and-swap writes. Its safety argument (rules E0 to E7) is on
 * {@link dev.hoplock.core.election.Elector}, the one place their text lives; each rule lives in one type that names it
 * ({@code VerificationGate} E0, {@code LeaseTimes} and {@code Leadership} E1 and E2, {@code LeaseWriter} the acquire
 * write of E1 and E5, {@code RequestBook} E3, {@code TakeoverDecision}, {@code ObservationTracker} and
 * {@code DeletedRecordRule} E4, {@code UnknownWrites} E5, {@code TakeoverDecision} and {@code Release} E6,
 * {@code Release} and {@code LeaseLifecycle} E7), driven by the state machine {@code LeaseLoop}, whose state changes in
 * one method ({@code LeaseLoop.transition}). Those types are internal: the elector-only ones are package-private here,
 * the ones shared with the other lease users (named locks, ownership) live in {@code dev.hoplock.core.internal.lease};
 * none is part of the public API.
 *
 * <p>Nullness: no method accepts or returns {@code null} unless it is annotated {@code @Nullable}; optional results are
 * {@link java.util.Optional}, and a setting left unset takes its default (null never means "default").
 */
@NullMarked
package dev.hoplock.core.election;

import org.jspecify.annotations.NullMarked;
