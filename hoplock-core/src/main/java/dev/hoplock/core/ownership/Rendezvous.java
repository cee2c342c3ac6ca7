package dev.hoplock.core.ownership;

import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Rendezvous (highest-random-weight) hashing with the results of the Go package hanzoai/ha: given the same member ids,
 * {@link #owner}, {@link #isOwner} and {@link #replicas} answer as ha's {@code Owner}, {@code IsOwner} and
 * {@code Replicas} do, for every key.
 *
 * <p>Guarantees: the owner of a key is the member with the highest {@link #weight}, equal weights going to the smaller
 * id in UTF-8 byte order; the answer depends only on the key and the set of ids (not on their order, nor on the
 * addresses); an empty member list has no owner (fail closed). Every call computes one SHA-256 per member and reads
 * nothing else: no cache, no I/O, safe from any thread. For a check per call on a hot path, use {@link OwnerCache}.
 *
 * <p>Keys and ids must be well-formed text (no unpaired surrogate); keys may be empty, as in ha.
 */
public final class Rendezvous {

    private Rendezvous() {
    }

    /**
     * The weight of {@code memberId} for {@code key}: the first 8 bytes of
     * SHA-256(UTF-8(key) ‖ 0x00 ‖ UTF-8(memberId)) as a big-endian <em>unsigned</em> 64-bit number, returned in a
     * {@code long}: compare weights with {@link Long#compareUnsigned}, print them with {@link Long#toUnsignedString}.
     */
    public static long weight(String key, String memberId) {
        return Ranking.weight(Ranking.sha256(), Utf8.encode("key", key), Utf8.encode("member id", memberId),
                new byte[Ranking.DIGEST_LENGTH]);
    }

    /** The owner of {@code key} among {@code members}; empty when there is no member (fail closed). */
    public static Optional<Member> owner(String key, Collection<Member> members) {
        return owner(key, MembershipView.of(0, members));
    }

    /** The owner of {@code key} in {@code view}; empty when the view has no member (fail closed). */
    public static Optional<Member> owner(String key, MembershipView view) {
        int index = ownerIndex(key, view);
        return index < 0 ? Optional.empty() : Optional.of(view.members().get(index));
    }

    /** Whether the member {@code selfId} owns {@code key} among {@code members}; false when there is no member. */
    public static boolean isOwner(String key, String selfId, Collection<Member> members) {
        return isOwner(key, selfId, MembershipView.of(0, members));
    }

    /** Whether the member {@code selfId} owns {@code key} in {@code view}; false when the view has no member. */
    public static boolean isOwner(String key, String selfId, MembershipView view) {
        Objects.requireNonNull(selfId, "selfId is null");
        int index = ownerIndex(key, view);
        return index >= 0 && view.members().get(index).id().equals(selfId);
    }

    /**
     * The owner of {@code key} followed by its failover successors, by weight descending then id ascending (UTF-8
     * byte order): at most {@code n} members, all of them when {@code n} exceeds their number, none when {@code n <= 0}
     * or there is no member. The list is unmodifiable.
     */
    public static List<Member> replicas(String key, Collection<Member> members, int n) {
        return replicas(key, MembershipView.of(0, members), n);
    }

    /** As {@link #replicas(String, Collection, int)}, over a view. */
    public static List<Member> replicas(String key, MembershipView view, int n) {
        Objects.requireNonNull(view, "view is null");
        byte[] keyBytes = Utf8.encode("key", key);
        int size = view.size();
        if (n <= 0 || size == 0) {
            return List.of();
        }
        long[] weights = weights(keyBytes, view);
        Integer[] order = new Integer[size];
        for (int i = 0; i < size; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Ranking.compare(weights[a], view.idBytes(a), weights[b], view.idBytes(b)));
        Member[] result = new Member[Math.min(n, size)];
        for (int i = 0; i < result.length; i++) {
            result[i] = view.members().get(order[i]);
        }
        return List.of(result);
    }

    /** The index in {@code view.members()} of the owner of {@code key}, or -1 when the view is empty. */
    static int ownerIndex(String key, MembershipView view) {
        Objects.requireNonNull(view, "view is null");
        byte[] keyBytes = Utf8.encode("key", key);
        int size = view.size();
        if (size == 0) {
            return -1;
        }
        MessageDigest sha256 = Ranking.sha256();
        byte[] scratch = new byte[Ranking.DIGEST_LENGTH];
        int best = 0;
        long bestWeight = Ranking.weight(sha256, keyBytes, view.idBytes(0), scratch);
        for (int i = 1; i < size; i++) {
            long weight = Ranking.weight(sha256, keyBytes, view.idBytes(i), scratch);
            if (Ranking.compare(weight, view.idBytes(i), bestWeight, view.idBytes(best)) < 0) {
                best = i;
                bestWeight = weight;
            }
        }
        return best;
    }

    private static long[] weights(byte[] keyBytes, MembershipView view) {
        MessageDigest sha256 = Ranking.sha256();
        byte[] scratch = new byte[Ranking.DIGEST_LENGTH];
        long[] weights = new long[view.size()];
        for (int i = 0; i < weights.length; i++) {
            weights[i] = Ranking.weight(sha256, keyBytes, view.idBytes(i), scratch);
        }
        return weights;
    }
}
