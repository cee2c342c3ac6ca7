package dev.hoplock.core.ownership;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import static java.util.Objects.requireNonNull;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RegistryTest {

    private static Registry.Entry entryOf(Registry registry, String id) {
        return requireNonNull(registry.entry(id), () -> "no entry of " + id);
    }

    private static Registry.Entry entry(String id, long ack) {
        return new Registry.Entry(id, "", id + "#1", 1, ack, 30_000);
    }

    /** A well-formed version's framing around {@code body}, so that the line checks behind it are reached. */
    private static byte[] sealed(String body) {
        return RegistrySeal.seal(body.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void roundTripsAnyTextAndEmptyAddresses() {
        Registry registry = new Registry(7, 12, List.of(
                new Registry.Entry("pod 1/ü~-", "10.0.0.1:80", "host:1:ab", 3, 7, 30_000),
                new Registry.Entry("-", "", "x", 1, 6, 10_000)));
        Registry decoded = Registry.decode(registry.encode());
        assertThat(decoded).isEqualTo(registry);
        assertThat(entryOf(decoded, "-").address()).isEmpty();
        assertThat(entryOf(decoded, "pod 1/ü~-").owner()).isEqualTo("host:1:ab");
    }

    @Test
    void joinAndRemovalRaiseTheEpochAcknowledgementDoesNot() {
        Registry first = Registry.first(1, entry("a", 0), "0123456789abcdef");
        assertThat(entryOf(first, "a").ack()).isEqualTo(1);
        Registry joined = first.join(entry("b", 0));
        assertThat(joined.epoch()).isEqualTo(2);
        assertThat(entryOf(joined, "b").ack()).isEqualTo(2);
        assertThat(joined.acknowledgedByAllBut("b")).isFalse();
        Registry acked = joined.ack("a");
        assertThat(acked.epoch()).isEqualTo(2);
        assertThat(acked.seq()).isGreaterThan(joined.seq());
        assertThat(acked.acknowledgedByAllBut("b")).isTrue();
        Registry removed = acked.without("a");
        assertThat(removed.epoch()).isEqualTo(3);
        assertThat(removed.entry("a")).isNull();
        assertThat(removed.encode()).isNotEqualTo(acked.encode());
    }

    /** Rule M9: the incarnation is written at create, carried by every later write, and read back. */
    @Test
    void theIncarnationIsCarriedByEveryWriteAndRoundTrips() {
        Registry first = Registry.first(1, entry("a", 0), "0123456789abcdef");
        assertThat(first.young()).isTrue();
        Registry later = first.join(entry("b", 0)).ack("a").without("b").grownUp();
        assertThat(later.incarnation()).isEqualTo("0123456789abcdef");
        assertThat(later.young()).isFalse();
        assertThat(later.epoch()).isEqualTo(3);
        assertThat(Registry.decode(first.encode())).isEqualTo(first);
        assertThat(Registry.decode(later.encode())).isEqualTo(later);
        assertThat(new String(first.encode(), StandardCharsets.UTF_8))
                .contains("\nincarnation 0123456789abcdef young\n");
    }

    /** The format written before incarnations existed is still read: incarnation "", not young. */
    @Test
    void readsTheFormatWithoutAnIncarnationLine() {
        Registry old = Registry.decode(("hoplock-registry 1\nepoch 4\nseq 9\nmember 4 2 30000 a a%231 ~\n")
                .getBytes(StandardCharsets.UTF_8));
        assertThat(old.incarnation()).isEmpty();
        assertThat(old.young()).isFalse();
        assertThat(entryOf(old, "a").owner()).isEqualTo("a#1");
        assertThat(new String(old.ack("a").encode(), StandardCharsets.UTF_8)).doesNotContain("incarnation");
        assertThatThrownBy(() -> Registry.decode("hoplock-registry 1\nepoch 1\nseq 1\nincarnation x old\n"
                .getBytes(StandardCharsets.UTF_8))).hasMessageContaining("incarnation line");
    }

    /** Rule M9: the same view only with the same incarnation, epoch and registrations (ids, processes, generations). */
    @Test
    void theSameViewNeedsTheSameIncarnationAndRegistrations() {
        Registry a = Registry.first(1, entry("a", 0), "aaaaaaaaaaaaaaaa").join(entry("b", 0));
        assertThat(a.ack("a").sameViewAs(a)).as("an acknowledgement").isTrue();
        assertThat(a.grownUp().sameViewAs(a)).as("the end of the grace").isTrue();
        Registry other = Registry.first(1, entry("a", 0), "bbbbbbbbbbbbbbbb").join(entry("b", 0));
        assertThat(other.sameViewAs(a)).as("another incarnation, same members").isFalse();
        Registry otherProcess = a.withEntries(List.of(a.entry("a"),
                new Registry.Entry("b", "", "b#2", 1, 2, 30_000)));
        assertThat(otherProcess.sameViewAs(a)).as("another process at the same generation").isFalse();
        Registry fewer = a.withEntries(List.of(a.entry("a")));
        assertThat(fewer.sameViewAs(a)).as("other members at the same epoch").isFalse();
    }

    @Test
    void refusesWhatIsNotARegistryNamingTheProblem() {
        assertThatThrownBy(() -> Registry.decode("{\"generation\":1}".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a hoplock registry");
        assertThatThrownBy(() -> Registry.decode("hoplock-registry 1\nepoch x\nseq 1\n".getBytes(StandardCharsets.UTF_8)))
                .hasMessageContaining("epoch");
        assertThatThrownBy(() -> Registry.decode("hoplock-registry 1\nepoch 1\nseq 1\nmember 1 2\n"
                .getBytes(StandardCharsets.UTF_8))).hasMessageContaining("line 4");
        assertThatThrownBy(() -> Registry.decode(sealed("hoplock-registry 2\nepoch x\nseq 1\n")))
                .hasMessageContaining("epoch");
        assertThatThrownBy(() -> Registry.decode(sealed("hoplock-registry 2\nepoch 1\nseq 1\nmember 1 2\n")))
                .hasMessageContaining("line 4");
    }

    /**
     * Issue 19: S3Mock served {@code m-a#1} the ETag and length of epoch 4 with the bytes of epoch 5 (m-d's join), cut
     * at epoch 4's length, which is exactly the end of m-c's line. Without an end line that decoded as epoch 5 =
     * [m-a, m-c], a version the store never held, and became m-a's view.
     */
    @Test
    void aJoinCutShortAtTheLengthOfThePreviousVersionIsRefusedAsTorn() {
        Registry epoch4 = new Registry(4, 9, List.of(
                new Registry.Entry("m-a", "m-a#1:0", "m-a#1", 1, 4, 3_000),
                new Registry.Entry("m-c", "m-c#1:0", "m-c#1", 1, 4, 3_000)));
        Registry epoch5 = epoch4.join(new Registry.Entry("m-d", "m-d#1:0", "m-d#1", 1, -1, 3_000));
        byte[] torn = Arrays.copyOf(epoch5.encode(), epoch4.encode().length);

        assertThatThrownBy(() -> Registry.decode(torn))
                .as("the first %d bytes of epoch 5 (what a torn GET answered)", torn.length)
                .isInstanceOf(RegistrySeal.TornRegistryException.class)
                .hasMessageContaining("torn");
        assertThat(Registry.decode(epoch5.encode())).isEqualTo(epoch5);
    }

    @Test
    void everyStrictPrefixAndEverySpliceOfTwoVersionsIsRefused() {
        Registry before = new Registry(7, 12, List.of(entry("a", 7), entry("b", 6), entry("c", 7)));
        Registry after = before.ack("b");
        byte[] whole = after.encode();
        assertThat(whole.length).isEqualTo(before.encode().length);
        for (int length = 0; length < whole.length; length++) {
            byte[] prefix = Arrays.copyOf(whole, length);
            assertThatThrownBy(() -> Registry.decode(prefix)).as("prefix of %d bytes", length)
                    .isInstanceOf(IllegalArgumentException.class);
        }
        byte[] older = before.encode();
        for (int cut = 1; cut < whole.length; cut++) {
            byte[] spliced = whole.clone();
            System.arraycopy(older, cut, spliced, cut, older.length - cut);
            if (!Arrays.equals(spliced, whole) && !Arrays.equals(spliced, older)) {
                assertThatThrownBy(() -> Registry.decode(spliced)).as("new bytes up to %d, old after", cut)
                        .isInstanceOf(RegistrySeal.TornRegistryException.class);
            }
        }
    }

    @Test
    void aRegistryOfFormatOneStillReadsAndIsWrittenBackInFormatTwo() {
        Registry old = Registry.decode("hoplock-registry 1\nepoch 1\nseq 1\nmember 1 1 3000 a a%231 ~\n"
                .getBytes(StandardCharsets.UTF_8));
        assertThat(old.entries()).extracting(Registry.Entry::id).containsExactly("a");
        String written = new String(old.encode(), StandardCharsets.UTF_8);
        assertThat(written).startsWith("hoplock-registry 2\n").containsPattern("\nend [0-9a-f]{8}\n$");
        assertThat(Registry.decode(old.encode())).isEqualTo(old);
    }

    @Test
    void memberKeysAreValidForAnyId() {
        assertThat(MemberKeys.memberKey("g", "pod-1")).isEqualTo("g/members/pod-1");
        assertThat(MemberKeys.memberKey("g", "host:1")).isEqualTo("g/members/x-686f73743a31");
        assertThat(MemberKeys.memberKey("g", "x-1")).isNotEqualTo("g/members/x-1");
        assertThat(MemberKeys.memberKey("g", "..")).startsWith("g/members/x-");
    }
}
