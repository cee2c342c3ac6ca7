/**
 * Per-key ownership, the deterministic foundation: which member of a group owns a key, by rendezvous
 * (highest-random-weight) hashing, with the same results as the Go package hanzoai/ha.
 *
 * <p><b>This package alone is not safe ownership.</b> Like ha's own election it is uncoordinated: two instances that
 * see different member lists can each compute that they own the same key, and nothing here stops both from acting on
 * it. There is no live membership yet (only {@link dev.hoplock.core.ownership.StaticMembership}, for development and
 * tests), no hand-over rule across membership changes and no per-key fencing token. Those come next, over the lease
 * store: a live membership in which instances join by writing, stay by renewing and are dropped when they stop; a key
 * that moves from A to B is acted on by B only after A has provably stopped; a fencing token per key that rises at
 * every change of owner. Until then, use this package to spread work whose duplicate execution is harmless, or with a
 * fence of your own downstream.
 *
 * <p>What this package does guarantee:
 * <ul>
 *   <li><b>Same answer as ha.</b> The weight of a member for a key is the first 8 bytes of
 *       SHA-256(UTF-8(key) ‖ 0x00 ‖ UTF-8(member id)) read as a big-endian unsigned 64-bit number
 *       ({@link dev.hoplock.core.ownership.Rendezvous#weight}). The owner is the member with the highest weight, ties
 *       going to the smaller id in the byte order of the ids' UTF-8 encodings (Go's string order). Given the same
 *       member ids, a Java and a Go service name the same owner and the same replica order for every key.</li>
 *   <li><b>Deterministic and order-independent:</b> the answer depends on the key and the set of member ids only.</li>
 *   <li><b>Fail-closed:</b> an empty or unavailable membership has no owner; no check answers "you own it" then.</li>
 *   <li><b>Minimal movement:</b> when a member joins, only the keys it now wins move (to it); when a member leaves,
 *       only its keys move. The expected share of moved keys is 1/N.</li>
 *   <li><b>Cheap hot path:</b> {@link dev.hoplock.core.ownership.OwnerCache#isOwner} reads local state only and, for
 *       keys that repeat, costs a hash-map look-up instead of N SHA-256 computations.</li>
 * </ul>
 *
 * <p>Nullness: no method accepts or returns {@code null} unless it is annotated {@code @Nullable}.
 */
@NullMarked
package dev.hoplock.core.ownership;

import org.jspecify.annotations.NullMarked;
