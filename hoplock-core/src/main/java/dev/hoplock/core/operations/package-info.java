/**
 * Operations on lease records for the people who run hoplock: who holds a key ({@link LeaseInspection},
 * {@link LeaseRecordView}), and freeing a record whose holder is gone ({@link StuckLeaseRelease}), the safe
 * counterpart of ShedLock's "delete the row". Used by the Spring Boot Actuator endpoint and the {@code hoplock-cli}
 * tool; a program may call them too.
 *
 * <p>Nothing here makes a process a holder: an inspection only reads, and a release only ever writes the released
 * record (expired, no owner, the same generation) that a holder's own graceful release writes, conditional on a version
 * observed unchanged for a whole TTL on this machine's monotonic clock (the local half of rule E4 of
 * {@link dev.hoplock.core.election.Elector}). Nothing here deletes.
 *
 * <p>Nullness: no method accepts or returns {@code null} unless it is annotated {@code @Nullable}.
 */
@NullMarked
package dev.hoplock.core.operations;

import org.jspecify.annotations.NullMarked;
