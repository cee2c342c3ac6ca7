/**
 * Named locks over any {@link dev.hoplock.core.backend.Backend}: "at most one of us does this piece of work now", by
 * name, for a while, extended, released. The engine is {@link dev.hoplock.core.lock.NamedLocks}; this package holds
 * the API it implements ({@link dev.hoplock.core.lock.Locks}), its value types and the engine's internals
 * (package-private: {@code LockSlot} per name with the types that implement each rule).
 *
 * <p>Guarantees (the elector's safety rules 1 to 6, shared by both, see {@link dev.hoplock.core.election.Elector}):
 * <ul>
 *   <li><b>Validity anchored before the write.</b> A lock counts as held ({@link dev.hoplock.core.lock.LockHandle#isHeld()})
 *       only until {@code t0 + ttl - safetyMargin} on the local monotonic clock (and the same on the wall clock), where
 *       {@code t0} is taken before the write that acquired or extended it was sent.</li>
 *   <li><b>Takeover only after local observation.</b> A lock held by another owner is taken only when its record is
 *       expired by the local wall clock <em>and</em> this process has seen the same version unchanged for at least the
 *       TTL asked for (and at least the validity the record showed when first seen) on its monotonic clock. The
 *       holder's {@code expires_at} alone is never trusted.</li>
 *   <li><b>Fencing tokens.</b> Every acquisition writes a generation above every generation seen for the name; a
 *       release writes an expired record at the same generation (never a delete), so tokens strictly increase per
 *       name as long as nothing outside hoplock deletes the record.</li>
 *   <li><b>Unknown outcomes.</b> A write without an answer never yields "you hold it"; a later read adopts it only when
 *       owner, generation and nonce prove it ours.</li>
 * </ul>
 *
 * <p>Nullness: no method accepts or returns {@code null} unless marked {@code @Nullable}.
 */
@NullMarked
package dev.hoplock.core.lock;

import org.jspecify.annotations.NullMarked;
