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
        Registry first = Registry.first(1, entry("a", 0));
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
