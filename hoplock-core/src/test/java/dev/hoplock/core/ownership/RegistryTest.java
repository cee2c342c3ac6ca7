package dev.hoplock.core.ownership;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RegistryTest {

    private static Registry.Entry entry(String id, long ack) {
        return new Registry.Entry(id, "", id + "#1", 1, ack, 30_000);
    }

    @Test
    void roundTripsAnyTextAndEmptyAddresses() {
        Registry registry = new Registry(7, 12, List.of(
                new Registry.Entry("pod 1/ü~-", "10.0.0.1:80", "host:1:ab", 3, 7, 30_000),
                new Registry.Entry("-", "", "x", 1, 6, 10_000)));
        Registry decoded = Registry.decode(registry.encode());
        assertThat(decoded).isEqualTo(registry);
        assertThat(decoded.entry("-").address()).isEmpty();
        assertThat(decoded.entry("pod 1/ü~-").owner()).isEqualTo("host:1:ab");
    }

    @Test
    void joinAndRemovalRaiseTheEpochAcknowledgementDoesNot() {
        Registry first = Registry.first(1, entry("a", 0), "0123456789abcdef");
        assertThat(first.entry("a").ack()).isEqualTo(1);
        Registry joined = first.join(entry("b", 0));
        assertThat(joined.epoch()).isEqualTo(2);
        assertThat(joined.entry("b").ack()).isEqualTo(2);
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
        assertThat(old.entry("a").owner()).isEqualTo("a#1");
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
    }

    @Test
    void memberKeysAreValidForAnyId() {
        assertThat(MemberKeys.memberKey("g", "pod-1")).isEqualTo("g/members/pod-1");
        assertThat(MemberKeys.memberKey("g", "host:1")).isEqualTo("g/members/x-686f73743a31");
        assertThat(MemberKeys.memberKey("g", "x-1")).isNotEqualTo("g/members/x-1");
        assertThat(MemberKeys.memberKey("g", "..")).startsWith("g/members/x-");
    }
}
