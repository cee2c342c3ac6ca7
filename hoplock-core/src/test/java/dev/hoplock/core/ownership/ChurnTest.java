package dev.hoplock.core.ownership;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Minimal movement, as exact properties (the measured shares are in docs/BENCHMARKS.md): a joiner takes only the keys
 * it now wins, a leaver gives up only its own keys, and each of those goes to its first successor in
 * {@link Rendezvous#replicas}.
 */
class ChurnTest {

    private static final int KEYS = 10_000;

    @Test
    void aJoiningMemberTakesExactlyTheKeysItNowWinsAndNoOtherKeyMoves() {
        MembershipView before = view(1, 9);
        List<Member> grown = new ArrayList<>(before.members());
        Member joiner = Member.of("member-joiner");
        grown.add(joiner);
        MembershipView after = MembershipView.of(2, grown);

        int moved = 0;
        for (int k = 0; k < KEYS; k++) {
            String key = "key-" + k;
            Member old = Rendezvous.owner(key, before).orElseThrow();
            Member now = Rendezvous.owner(key, after).orElseThrow();
            if (!now.equals(old)) {
                moved++;
                assertThat(now).as("a key that moved on join, %s", key).isEqualTo(joiner);
            }
            if (now.equals(joiner)) {
                assertThat(old).as("the joiner won %s from nobody", key).isNotEqualTo(joiner);
            }
        }
        assertThat(moved).as("keys the joiner took").isPositive();
    }

    @Test
    void aLeavingMemberGivesUpExactlyItsKeysEachToItsFirstSuccessor() {
        MembershipView before = view(1, 10);
        for (Member leaver : before.members()) {
            List<Member> shrunk = new ArrayList<>(before.members());
            shrunk.remove(leaver);
            MembershipView after = MembershipView.of(2, shrunk);
            for (int k = 0; k < KEYS; k += 3) {
                String key = "key-" + k;
                List<Member> ranked = Rendezvous.replicas(key, before, 2);
                Member now = Rendezvous.owner(key, after).orElseThrow();
                if (ranked.get(0).equals(leaver)) {
                    assertThat(now).as("the leaver's key %s", key).isEqualTo(ranked.get(1));
                } else {
                    assertThat(now).as("a key %s the leaver did not own", key).isEqualTo(ranked.get(0));
                }
            }
        }
    }

    @Test
    void theLastMemberLeavingLeavesNoOwner() {
        MembershipView one = view(1, 1);
        assertThat(Rendezvous.owner("acme", one)).isPresent();
        assertThat(Rendezvous.owner("acme", MembershipView.of(2, List.of()))).isEmpty();
    }

    private static MembershipView view(long version, int size) {
        List<Member> members = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            members.add(new Member("member-" + i, "10.0.0." + i + ":8080"));
        }
        return MembershipView.of(version, members);
    }
}
