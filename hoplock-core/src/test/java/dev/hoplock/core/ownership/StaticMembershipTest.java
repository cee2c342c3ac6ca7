package dev.hoplock.core.ownership;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class StaticMembershipTest {

    @Test
    void aSingleMemberOwnsEveryKey() {
        StaticMembership membership = StaticMembership.single("solo");
        OwnerCache cache = new OwnerCache(membership);
        for (int k = 0; k < 100; k++) {
            assertThat(cache.isOwner("key-" + k)).isTrue();
        }
        assertThat(membership.members().members()).containsExactly(Member.of("solo"));
        assertThat(membership.members().version()).isEqualTo(StaticMembership.VERSION);
    }

    @Test
    void theViewIsTheSameInstanceOnEveryCall() {
        StaticMembership membership = StaticMembership.of(Member.of("a"), List.of(Member.of("a"), Member.of("b")));
        assertThat(membership.members()).isSameAs(membership.members());
        assertThat(membership.self()).isEqualTo(Member.of("a"));
    }
}
