package dev.hoplock.core.ownership;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Compatibility with hanzoai/ha: fixed vectors (key, members -> ranked members, the first being the owner), frozen as
 * literals so that a change that breaks compatibility fails here. They were computed from the definition by
 * {@code src/test/go/vectors.go} (Go's crypto/sha256, encoding/binary and string order, as ha uses) and match this
 * implementation; the second half of this class recomputes the definition independently (MessageDigest over the
 * concatenated bytes, BigInteger, UTF-8 byte order) and compares on many keys.
 */
class RendezvousVectorsTest {

    static Stream<Arguments> vectors() {
        return Stream.of(
                vector("acme", ids("r3", "r1", "r2"), ids("r2", "r1", "r3")),
                vector("acme", ids("r1", "r2", "r3", "r4"), ids("r2", "r1", "r4", "r3")),
                vector("some-org-slug",
                        ids("replica-00", "replica-01", "replica-02", "replica-03", "replica-04", "replica-05",
                                "replica-06", "replica-07", "replica-08", "replica-09", "replica-10", "replica-11",
                                "replica-12", "replica-13", "replica-14", "replica-15"),
                        ids("replica-01", "replica-03", "replica-10", "replica-13", "replica-00", "replica-11",
                                "replica-14", "replica-05", "replica-06", "replica-09", "replica-08", "replica-07",
                                "replica-12", "replica-04", "replica-02", "replica-15")),
                vector("", ids("a", "b"), ids("b", "a")),
                vector("a", ids("r1", "r2", "r3"), ids("r3", "r2", "r1")),
                vector("customer-42", ids("node-1", "node-2", "node-3", "node-4", "node-5"),
                        ids("node-4", "node-2", "node-3", "node-5", "node-1")),
                vector("tenant/z\u00fcrich", ids("eu-1", "eu-2", "us-1"), ids("eu-1", "us-1", "eu-2")),
                vector("\uD83C\uDF89-party", ids("\uFF61", "\uD83D\uDE00", "z"), ids("\uD83D\uDE00", "\uFF61", "z")),
                vector("invoice:2024-0001",
                        ids("billing-a", "billing-b", "billing-c", "billing-d", "billing-e", "billing-f", "billing-g"),
                        ids("billing-c", "billing-g", "billing-a", "billing-d", "billing-f", "billing-e", "billing-b")),
                vector("ab", ids("c"), ids("c")),
                vector("k",
                        ids("member-0", "member-1", "member-2", "member-3", "member-4", "member-5", "member-6",
                                "member-7", "member-8", "member-9"),
                        ids("member-1", "member-0", "member-8", "member-5", "member-6", "member-4", "member-9",
                                "member-7", "member-3", "member-2")),
                vector("queue/partition-7", ids("10.0.0.1:8080", "10.0.0.2:8080", "10.0.0.3:8080"),
                        ids("10.0.0.1:8080", "10.0.0.2:8080", "10.0.0.3:8080")));
    }

    @ParameterizedTest(name = "{0} over {1}")
    @MethodSource("vectors")
    void ownerAndReplicasMatchTheFrozenVectors(String key, List<String> ids, List<String> ranked) {
        List<Member> members = members(ids);

        assertThat(Rendezvous.owner(key, members)).map(Member::id).contains(ranked.get(0));
        assertThat(Rendezvous.replicas(key, members, ids.size())).extracting(Member::id).isEqualTo(ranked);
        assertThat(Rendezvous.replicas(key, members, 2)).extracting(Member::id)
                .isEqualTo(ranked.subList(0, Math.min(2, ranked.size())));
        for (String id : ids) {
            assertThat(Rendezvous.isOwner(key, id, members)).as(id).isEqualTo(id.equals(ranked.get(0)));
        }
        assertThat(new OwnerCache(StaticMembership.of(Member.of(ranked.get(0)), members)).isOwner(key)).isTrue();
    }

    @Test
    void weightsMatchTheFrozenVectorsAsUnsignedNumbers() {
        assertThat(Rendezvous.weight("acme", "r1")).isEqualTo(Long.parseUnsignedLong("7907468355934935579"));
        assertThat(Rendezvous.weight("acme", "r2")).isEqualTo(Long.parseUnsignedLong("15103437517456387597"));
        assertThat(Rendezvous.weight("acme", "r3")).isEqualTo(Long.parseUnsignedLong("2764193199759339772"));
        // r2's weight is above 2^63: read as a signed long it is negative, yet it is the highest of the three.
        assertThat(Rendezvous.weight("acme", "r2")).isNegative();
        assertThat(Rendezvous.owner("acme", members(ids("r1", "r2", "r3")))).map(Member::id).contains("r2");
    }

    @Test
    void weightMatchesAnIndependentComputationOfTheDefinition() throws Exception {
        for (int i = 0; i < 500; i++) {
            String key = "key-" + i + (i % 7 == 0 ? "-\u00e9\uD83D\uDE00" : "");
            String id = "member-" + (i * 31 % 97) + (i % 5 == 0 ? "-\uFF61" : "");
            assertThat(unsigned(Rendezvous.weight(key, id)))
                    .as("%s / %s", key, id)
                    .isEqualTo(independentWeight(key, id));
        }
    }

    @Test
    void rankingMatchesAnIndependentComputationOfTheDefinition() throws Exception {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            ids.add("node-" + i);
        }
        ids.addAll(List.of("\uFF61", "\uD83D\uDE00", "\u00e9", "Z", "a"));
        List<Member> members = members(ids);
        for (int k = 0; k < 1_000; k++) {
            String key = "tenant-" + k;
            List<String> expected = new ArrayList<>(ids);
            Comparator<String> byWeightDescending = Comparator.comparing(id -> uncheckedWeight(key, id));
            expected.sort(byWeightDescending.reversed().thenComparing(
                    (a, b) -> Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8),
                            b.getBytes(StandardCharsets.UTF_8))));
            assertThat(Rendezvous.replicas(key, members, 4)).extracting(Member::id)
                    .as(key).isEqualTo(expected.subList(0, 4));
        }
    }

    private static BigInteger independentWeight(String key, String id) throws Exception {
        byte[] keyBytes = key.getBytes(StandardCharsets.UTF_8);
        byte[] idBytes = id.getBytes(StandardCharsets.UTF_8);
        byte[] input = new byte[keyBytes.length + 1 + idBytes.length];
        System.arraycopy(keyBytes, 0, input, 0, keyBytes.length);
        input[keyBytes.length] = 0;
        System.arraycopy(idBytes, 0, input, keyBytes.length + 1, idBytes.length);
        byte[] digest = MessageDigest.getInstance("SHA-256").digest(input);
        return new BigInteger(1, Arrays.copyOf(digest, 8));
    }

    private static BigInteger uncheckedWeight(String key, String id) {
        try {
            return independentWeight(key, id);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static BigInteger unsigned(long value) {
        return new BigInteger(Long.toUnsignedString(value));
    }

    private static Arguments vector(String key, List<String> ids, List<String> ranked) {
        return Arguments.of(key, ids, ranked);
    }

    private static List<String> ids(String... ids) {
        return List.of(ids);
    }

    static List<Member> members(List<String> ids) {
        return ids.stream().map(id -> new Member(id, "http://" + id.hashCode() + ".local")).toList();
    }
}
