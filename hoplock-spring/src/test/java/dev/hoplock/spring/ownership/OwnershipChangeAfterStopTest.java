package dev.hoplock.spring.ownership;

import dev.hoplock.core.ownership.Member;
import dev.hoplock.core.ownership.MembershipView;
import dev.hoplock.core.ownership.Rendezvous;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Review fix 1.1: a change that follows a stop compares with "owned nothing" in {@link OwnershipChange#gainedOf} and
 * {@link OwnershipChange#lostOf} as it does in {@link OwnershipChange#gained()} and {@link OwnershipChange#lost()}: no
 * key is lost a second time, and the keys owned again are gained.
 */
class OwnershipChangeAfterStopTest {

    private final MembershipView v = MembershipView.of(1, List.of(Member.of("a"), Member.of("b"), Member.of("c")));
    private final MembershipView v2 = MembershipView.of(2,
            List.of(Member.of("a"), Member.of("b"), Member.of("c"), Member.of("d")));
    private final List<String> keys = new ArrayList<>();

    OwnershipChangeAfterStopTest() {
        for (int i = 0; i < 200; i++) {
            keys.add("customer-" + i);
        }
    }

    @Test
    void aMembershipChangeAfterAStopLosesNoKeyTwice() {
        OwnershipChange stop = OwnershipChange.stopped("billing", 1, "b", v, keys);
        List<String> movedFromBToD = keys.stream()
                .filter(k -> Rendezvous.isOwner(k, "b", v) && Rendezvous.isOwner(k, "d", v2)).toList();
        assertThat(movedFromBToD).as("the test needs keys that b owned in v and d owns in v2").isNotEmpty();
        assertThat(stop.lostOf(keys)).containsAll(movedFromBToD);

        OwnershipChange next = OwnershipChange.of("billing", 2, "b", v, v2, keys, false, true);
        assertThat(next.actedBefore()).isFalse();
        assertThat(next.lost()).isEmpty();
        assertThat(next.lostOf(keys)).as("lost at the stop, not again").isEmpty();
        assertThat(next.gainedOf(keys)).isEqualTo(next.gained());
    }

    @Test
    void theReActChangeGainsTheKeysOwnedAgain() {
        OwnershipChange next = OwnershipChange.of("billing", 1, "b", v, v, keys, false, true);
        assertThat(next.gained()).as("b owns keys in v").isNotEmpty();
        assertThat(next.gainedOf(keys)).as("owned again after the stop").isEqualTo(next.gained());
        assertThat(next.lostOf(keys)).isEmpty();
    }

    /** Review 1.2: a view this instance does not act under gains nothing; after acting, what it acted on is lost. */
    @Test
    void aViewNotActedUnderGainsNoKey() {
        OwnershipChange afterStop = OwnershipChange.of("billing", 2, "b", v, v2, keys, false, false);
        assertThat(afterStop.actsAfter()).isFalse();
        assertThat(afterStop.gained()).isEmpty();
        assertThat(afterStop.gainedOf(keys)).isEmpty();
        assertThat(afterStop.lost()).isEmpty();
        assertThat(afterStop.lostOf(keys)).isEmpty();

        OwnershipChange whileActing = OwnershipChange.of("billing", 2, "b", v, v2, keys, true, false);
        List<String> ownedInV = keys.stream().filter(k -> Rendezvous.isOwner(k, "b", v)).sorted().toList();
        assertThat(whileActing.gained()).isEmpty();
        assertThat(whileActing.lost()).as("every key it acted on").isEqualTo(ownedInV);
        assertThat(whileActing.lostOf(keys)).isEqualTo(whileActing.lost());
    }

    @Test
    void aChangeThatFollowsNoStopStillComparesTheTwoViews() {
        OwnershipChange next = OwnershipChange.of("billing", 2, "b", v, v2, keys);
        assertThat(next.actedBefore()).isTrue();
        assertThat(next.lost()).isNotEmpty();
        assertThat(next.lostOf(keys)).isEqualTo(next.lost());
        assertThat(next.gainedOf(keys)).isEqualTo(next.gained());
    }
}
