/**
 * Per-key ownership: which member of a group owns a key, by rendezvous
 * (highest-random-weight) hashing, with the same results as the Go package hanzoai/ha.
 *
 * <p><b>Safe ownership is {@link dev.hoplock.core.ownership.OwnershipGroup}</b>: a live membership over any lease
 * store (join by writing, stay by renewing, leave by releasing, dropped when renewals stop), a hand-over rule across
 * membership changes (a key that moves from A to B is acted on by B only after A acknowledged the new epoch, left, or
 * its validity passed), and a fencing token per key. Its Javadoc holds the safety argument (rules M1 to M9).
 *
 * <p><b>Cost of an {@link dev.hoplock.core.ownership.OwnershipGroup}.</b> Discovery and failure detection cost
 * members, not keys. Each member reads the registry once per renew interval and the liveness lease of one other member
 * (the next id around the ring) once per renew interval, and renews its own lease once per renew interval; while
 * something changes it does so every poll interval. With nothing changing, that is 3 store requests per member per
 * renew interval (TTL/3): its lease renewal, one registry read, one read of the next member's lease (a single member
 * watches nobody: 2). At the default TTL of 30 s that is {@code 1,080 × N} requests per hour for N members (720 for
 * one), whatever the number of keys; counted by {@code OwnershipCostTest}. A change of the member set adds, per member,
 * registry reads every poll interval (TTL/15) until the new epoch is settled and one acknowledgement write (a
 * compare-and-swap on the one record, retried after a random wait under one poll when another member's write came
 * first). Measured at 10, 100 and 1,000 members (docs/ownership.md, "Scale"): the steady cost stays as above, but the
 * refused acknowledgement writes per change and the time until every acknowledgement is in grow with N, and the
 * registry bytes read grow with N squared; rule M3's grace caps the wait of a gained key at one TTL.
 *
 * <p>The rest of the package alone is <em>not</em> safe ownership. Like ha's own election,
 * {@link dev.hoplock.core.ownership.Rendezvous}, {@link dev.hoplock.core.ownership.OwnerCache} and
 * {@link dev.hoplock.core.ownership.StaticMembership} are uncoordinated: two instances that see different member lists
 * can each compute that they own the same key. Use them for work whose duplicate execution is harmless.
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
