package dev.hoplock.core.ownership;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MemberTest {

    @Test
    @SuppressWarnings("NullAway") // passes null on purpose: the refusal of it is what this test checks
    void anIdIsRequiredNonEmptyAndWellFormed() {
        assertThatThrownBy(() -> Member.of(null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("member id is null");
        assertThatThrownBy(() -> Member.of("")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("member id is empty");
        assertThatThrownBy(() -> Member.of("pod-\uDE00")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unpaired surrogate (U+DE00) at index 4");
        assertThat(Member.of("pod-\uD83D\uDE00").id()).isEqualTo("pod-\uD83D\uDE00");
    }

    @Test
    @SuppressWarnings("NullAway") // passes null on purpose: the refusal of it is what this test checks
    void theAddressIsRequiredAndMayBeEmpty() {
        assertThatThrownBy(() -> new Member("pod-1", null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("address of member 'pod-1' is null");
        assertThat(Member.of("pod-1").address()).isEmpty();
    }

    @Test
    void equalityIsByIdAndAddress() {
        assertThat(new Member("pod-1", "h:1")).isEqualTo(new Member("pod-1", "h:1"))
                .isNotEqualTo(new Member("pod-1", "h:2"));
    }
}
