/**
 * Named locks over any {@link dev.hoplock.core.backend.Backend}: "at most one of us does this piece of work now", by
 * name, for a while, extended, released. The engine is {@link dev.hoplock.core.lock.NamedLocks}; this package holds
 * the API it implements ({@link dev.hoplock.core.lock.Locks}), its value types and the engine's internals
 * (package-private: {@code LockSlot} per name with the types that implement each rule).
 *
 * <p>Guarantees: the elector's safety rules E0 to E6 hold for named locks as written, by the same code (their text is
 * in {@link dev.hoplock.core.election.Elector}'s Javadoc, the one place it lives); E7 is the elector's release and has no
 * counterpart here (a lock is released by its caller, {@code withLock} once its task returned). As they read for a lock:
 * <ul>
 *   <li><b>Validity anchored before the write (E1).</b> A lock counts as held ({@link dev.hoplock.core.lock.LockHandle#isHeld()})
 *       only until {@code t0 + ttl - safetyMargin} on the local monotonic clock (and the same on the wall clock), where
 *       {@code t0} is taken before the write that acquired or extended it was sent.</li>
 *   <li><b>Takeover only after local observation (E4, with L3).</b> A lock held by another owner is taken only when its record is
 *       expired by the local wall clock <em>and</em> this process has seen the same version unchanged for at least the
 *       TTL asked for (and at least the validity the record showed when first seen) on its monotonic clock. The
 *       holder's {@code expires_at} alone is never trusted. An attempt may write conditionally on the version it last
 *       saw without reading first (its own record whose acquisition ended, a released record, or one it has observed
 *       long enough, by the same decision): such a write lands only if that version is still current, which proves it
 *       unchanged up to then, as a read followed by a write does; a refused one means the version is gone, and the
 *       read that follows sees the new one for the first time (issue 24).</li>
 *   <li><b>Fencing tokens (E6, with L4).</b> Every acquisition writes a generation above every generation seen for the name; a
 *       release writes an expired record at the same generation (never a delete), so tokens strictly increase per
 *       name as long as nothing outside hoplock deletes the record.</li>
 *   <li><b>Unknown outcomes (E5, with L2).</b> A write without an answer never yields "you hold it"; a later read adopts it only when
 *       owner, generation and nonce prove it ours.</li>
 * </ul>
 *
 * <p>What named locks add to E, with stable ids L1 to L7 (this list is the one place where their text lives; the types
 * that implement them say "Implements Ln", tests cite the id, {@code RuleIdsTest} checks both):
 * <ul>
 *   <li><b>L1: An extension keeps exactly its own write's validity</b>, counted from the instant before it was sent,
 *       also when it asks for a shorter TTL than the lock was taken for, and from the moment it is sent (a write
 *       without an answer may have landed).</li>
 *   <li><b>L2: An adoption counts the adopted write's own TTL.</b> A write of unknown outcome that a read proves ours
 *       counts its validity from its own {@code t0} for the TTL it was written with, never the TTL the call that finds
 *       it asks for (the calls of one name may ask for different TTLs).</li>
 *   <li><b>L3: The observation lasts the longer of the TTL asked for and the validity the record showed when first
 *       seen</b>, so a holder that took the lock for a longer TTL is not taken over early by a caller asking for a
 *       shorter one.</li>
 *   <li><b>L4: A release writes an expired, ownerless record at the same generation (never a DELETE)</b>, conditional
 *       on the version this process wrote, so the next holder writes a higher token and takes the lock at once.</li>
 *   <li><b>L5: A lost lock is told.</b> A keep-alive that cannot renew (store down, record changed) ends the lock at its
 *       local deadline (or at once when the record changed), calls the listeners and interrupts the scopes that asked
 *       for it.</li>
 *   <li><b>L6: A TTL that cannot work is refused</b> at the call, naming the minimum
 *       ({@link dev.hoplock.core.lock.NamedLocks#minimumTtl()}): the usable part of the TTL must outlast a write.</li>
 *   <li><b>L7: The fair mode yields turns, never a held lock.</b> With a turn window above zero, an instance that
 *       holds nothing under a name, whose last acquisition of it ended less than the window ago, does not take the
 *       name the first time it finds it free in a given version: it writes L4's release on that version if it is its
 *       own ended record, and answers "held by another"; a later attempt that finds the same version takes it by E4
 *       and L3 as in the default mode. An instance whose yield on its own record nobody took stays quiet (does not
 *       yield) for ten windows unless another instance acquires the name meanwhile. It never yields while it holds
 *       the name (an extension), so its release never touches a record whose acquisition still counts as held here;
 *       it only ever delays an acquisition, never makes one. (A liveness rule: in the default mode nothing is
 *       promised about which instance wins.)</li>
 * </ul>
 *
 * <p>Fairness: the default mode promises none. Of several instances asking for a free name the first whose write
 * lands wins, so a caller whose calls come first in each period wins every period, and an instance that left its own
 * record to expire (a minimum hold) takes it back at once while the others must observe it for a whole TTL (E4).
 * The fair mode (L7; {@link dev.hoplock.core.lock.NamedLocks.Builder#fairTurn}) takes turns instead, at the cost of
 * attempts that go by: one per turn for an instance that others share the name with, about one per ten windows for an
 * instance alone.
 *
 * <p>Nullness: no method accepts or returns {@code null} unless marked {@code @Nullable}.
 */
@NullMarked
package dev.hoplock.core.lock;

import org.jspecify.annotations.NullMarked;
