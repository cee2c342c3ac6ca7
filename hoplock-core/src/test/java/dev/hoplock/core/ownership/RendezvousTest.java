package dev.hoplock.core.ownership;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RendezvousTest {

    private static final List<Member> FIVE = List.of(Member.of("a"), Member.of("b"), Member.of("c"), Member.of("d"),
            Member.of("e"));

    @Test
    void anEmptyMemberListHasNoOwnerAndNoReplicas() {
        assertThat(Rendezvous.owner("acme", List.of())).isEmpty();
        assertThat(Rendezvous.isOwner("acme", "a", List.of())).isFalse();
        assertThat(Rendezvous.replicas("acme", List.of(), 3)).isEmpty();
        assertThat(Rendezvous.owner("acme", MembershipView.empty(7))).isEmpty();
    }

    @Test
    void theOwnerDoesNotDependOnTheOrderOfTheMembers() {
        Random random = new Random(12);
        for (int k = 0; k < 200; k++) {
            String key = "key-" + k;
            List<Member> shuffled = new ArrayList<>(FIVE);
            Collections.shuffle(shuffled, random);
            assertThat(Rendezvous.owner(key, shuffled)).isEqualTo(Rendezvous.owner(key, FIVE));
            assertThat(Rendezvous.replicas(key, shuffled, 5)).isEqualTo(Rendezvous.replicas(key, FIVE, 5));
            assertThat(Rendezvous.owner(key, Set.copyOf(FIVE))).isEqualTo(Rendezvous.owner(key, FIVE));
        }
    }

    @Test
    void exactlyOneMemberOwnsEachKey() {
        for (int k = 0; k < 200; k++) {
            String key = "key-" + k;
            long owners = FIVE.stream().filter(m -> Rendezvous.isOwner(key, m.id(), FIVE)).count();
            assertThat(owners).as(key).isEqualTo(1);
        }
    }

    @Test
    void keysSpreadOverTheMembers() {
        Set<String> owners = new HashSet<>();
        for (String key : List.of("a", "b", "c", "d", "e", "f", "g", "h")) {
            owners.add(Rendezvous.owner(key, FIVE).orElseThrow().id());
        }
        assertThat(owners).hasSizeGreaterThanOrEqualTo(2);
    }

    @Test
    void replicasStartWithTheOwnerHoldNoDuplicateAndAreClamped() {
        for (int k = 0; k < 100; k++) {
            String key = "key-" + k;
            List<Member> all = Rendezvous.replicas(key, FIVE, 99);
            assertThat(all).hasSize(5).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(FIVE);
            assertThat(all.get(0)).isEqualTo(Rendezvous.owner(key, FIVE).orElseThrow());
            assertThat(Rendezvous.replicas(key, FIVE, 3)).isEqualTo(all.subList(0, 3));
            for (int i = 1; i < all.size(); i++) {
                assertThat(Long.compareUnsigned(Rendezvous.weight(key, all.get(i - 1).id()),
                        Rendezvous.weight(key, all.get(i).id()))).as("weights descend").isPositive();
            }
        }
        assertThat(Rendezvous.replicas("acme", FIVE, 0)).isEmpty();
        assertThat(Rendezvous.replicas("acme", FIVE, -1)).isEmpty();
    }

    @Test
    void theAddressIsNotHashed() {
        List<Member> elsewhere = FIVE.stream().map(m -> new Member(m.id(), "10.9.9.9:" + m.id().length())).toList();
        for (int k = 0; k < 100; k++) {
            String key = "key-" + k;
            assertThat(Rendezvous.owner(key, elsewhere).orElseThrow().id())
                    .isEqualTo(Rendezvous.owner(key, FIVE).orElseThrow().id());
        }
    }

    @Test
    void anEmptyKeyHasAnOwnerAsInHa() {
        assertThat(Rendezvous.owner("", FIVE)).isPresent();
    }

    @Test
    @SuppressWarnings("NullAway") // passes null on purpose: the refusal of it is what this test checks
    void aKeyWithAnUnpairedSurrogateIsRefusedWithTheReason() {
        assertThatThrownBy(() -> Rendezvous.owner("tenant-\uD800", FIVE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("key has an unpaired surrogate (U+D800) at index 7")
                .hasMessageContaining("pass well-formed text");
        assertThatThrownBy(() -> Rendezvous.weight("k", "\uDC00x")).hasMessageContaining("member id has an unpaired");
        assertThatThrownBy(() -> Rendezvous.owner(null, FIVE)).isInstanceOf(NullPointerException.class)
                .hasMessage("key is null");
    }

    @Test
    void twoMembersWithOneIdAreRefusedWhateverTheirAddresses() {
        List<Member> twice = List.of(new Member("a", "host-1:80"), Member.of("b"), new Member("a", "host-2:80"));
        assertThatThrownBy(() -> Rendezvous.owner("acme", twice))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("member id 'a' appears twice")
                .hasMessageContaining("host-1:80")
                .hasMessageContaining("host-2:80");
    }

    @Test
    void aNullMemberIsRefused() {
        List<Member> withNull = new ArrayList<>(FIVE);
        withNull.add(null);
        assertThatThrownBy(() -> Rendezvous.owner("acme", withNull)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("null member");
    }
}
