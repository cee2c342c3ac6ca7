package dev.hoplock.core.ownership;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OwnerCacheTest {

    private static final Member SELF = Member.of("member-3");

    @Test
    void answersAsRendezvousForEveryKeyAndAgainFromTheCache() {
        MembershipView view = view(1, 10);
        OwnerCache cache = new OwnerCache(new SwitchableMembership(SELF, view));
        for (int round = 0; round < 2; round++) {
            for (int k = 0; k < 1_000; k++) {
                String key = "key-" + k;
                assertThat(cache.owner(key)).isEqualTo(Rendezvous.owner(key, view));
                assertThat(cache.isOwner(key)).isEqualTo(Rendezvous.isOwner(key, SELF.id(), view));
            }
        }
        assertThat(cache.cachedKeys()).isEqualTo(1_000);
        assertThat(cache.replicas("key-1", 3)).isEqualTo(Rendezvous.replicas("key-1", view, 3));
    }

    @Test
    void aNewViewIsNeverAnsweredFromTheOldViewsCache() {
        MembershipView ten = view(1, 10);
        SwitchableMembership membership = new SwitchableMembership(SELF, ten);
        OwnerCache cache = new OwnerCache(membership);
        for (int k = 0; k < 1_000; k++) {
            cache.owner("key-" + k);
        }
        List<Member> fewer = new ArrayList<>(ten.members());
        fewer.removeIf(m -> m.id().equals("member-0") || m.id().equals("member-5"));
        MembershipView eight = MembershipView.of(2, fewer);
        membership.view = eight;

        int changed = 0;
        for (int k = 0; k < 1_000; k++) {
            String key = "key-" + k;
            Member now = Rendezvous.owner(key, eight).orElseThrow();
            changed += now.equals(Rendezvous.owner(key, ten).orElseThrow()) ? 0 : 1;
            assertThat(cache.owner(key)).as(key).contains(now);
            assertThat(cache.isOwner(key)).as(key).isEqualTo(now.equals(SELF));
        }
        assertThat(changed).as("keys whose owner changed, so that the test can fail").isPositive();
    }

    @Test
    void anUnavailableMembershipOwnsNothingAndNamesNoOwner() {
        SwitchableMembership membership = new SwitchableMembership(SELF, view(1, 1));
        OwnerCache cache = new OwnerCache(membership);
        assertThat(cache.isOwner("k")).isFalse(); // member-0 alone: SELF is not a member
        membership.view = MembershipView.of(2, List.of(SELF));
        assertThat(cache.isOwner("k")).isTrue();

        membership.unavailable = true;
        assertThat(cache.isOwner("k")).isFalse();
        assertThat(cache.owner("k")).isEmpty();
        assertThat(cache.replicas("k", 3)).isEmpty();

        membership.unavailable = false;
        assertThat(cache.isOwner("k")).isTrue();
    }

    @Test
    void anEmptyViewOwnsNothing() {
        OwnerCache cache = new OwnerCache(new SwitchableMembership(SELF, MembershipView.empty(4)));
        assertThat(cache.isOwner("k")).isFalse();
        assertThat(cache.owner("k")).isEmpty();
        assertThat(cache.replicas("k", 2)).isEmpty();
    }

    @Test
    void anObserverThatIsNotAMemberOwnsNothingButSeesTheOwners() {
        MembershipView view = view(1, 3);
        OwnerCache cache = new OwnerCache(new SwitchableMembership(Member.of("observer"), view));
        for (int k = 0; k < 100; k++) {
            String key = "key-" + k;
            assertThat(cache.isOwner(key)).isFalse();
            assertThat(cache.owner(key)).isEqualTo(Rendezvous.owner(key, view));
        }
    }

    @Test
    void theCacheHoldsAtMostItsCapacityAndStillAnswersRight() {
        MembershipView view = view(1, 10);
        OwnerCache cache = new OwnerCache(new SwitchableMembership(SELF, view), 64);
        for (int k = 0; k < 1_000; k++) {
            String key = "key-" + k;
            assertThat(cache.owner(key)).isEqualTo(Rendezvous.owner(key, view));
            assertThat(cache.cachedKeys()).isBetween(1, 64);
        }
    }

    @Test
    @SuppressWarnings("NullAway") // passes null on purpose: the refusal of it is what this test checks
    void badArgumentsAreRefusedWithTheReason() {
        SwitchableMembership membership = new SwitchableMembership(SELF, view(1, 2));
        assertThatThrownBy(() -> new OwnerCache(membership, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("capacity is 0");
        OwnerCache cache = new OwnerCache(membership);
        assertThatThrownBy(() -> cache.isOwner(null)).isInstanceOf(NullPointerException.class)
                .hasMessage("key is null");
        membership.view = null;
        assertThatThrownBy(() -> cache.isOwner("k")).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("returned a null view");
    }

    @Test
    void concurrentChecksDuringViewChangesAnswerForAViewAndSettleOnTheLast() throws Exception {
        MembershipView ten = view(1, 10);
        List<Member> fewer = new ArrayList<>(ten.members());
        fewer.removeIf(m -> m.id().equals("member-0") || m.id().equals("member-7"));
        MembershipView eight = MembershipView.of(2, fewer);
        SwitchableMembership membership = new SwitchableMembership(SELF, ten);
        OwnerCache cache = new OwnerCache(membership, 256);
        String[] keys = new String[500];
        for (int k = 0; k < keys.length; k++) {
            keys[k] = "key-" + k;
        }
        int threads = 4;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch start = new CountDownLatch(1);
            AtomicBoolean flipping = new AtomicBoolean(true);
            AtomicInteger rounds = new AtomicInteger();
            List<Future<String>> checkers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                checkers.add(pool.submit(() -> {
                    start.await();
                    for (int round = 0; flipping.get() || round < 2; round++) {
                        for (String key : keys) {
                            Member owner = cache.owner(key).orElseThrow();
                            if (!owner.equals(Rendezvous.owner(key, ten).orElseThrow())
                                    && !owner.equals(Rendezvous.owner(key, eight).orElseThrow())) {
                                rounds.addAndGet(1_000_000); // ends the flipping: the verdict is in
                                return key + " answered " + owner + ", the owner in neither view";
                            }
                        }
                        rounds.incrementAndGet();
                    }
                    return "ok";
                }));
            }
            start.countDown();
            // Flip while the checkers run: until they have walked all keys 5 times each, across the flips.
            for (int flip = 0; rounds.get() < 5 * threads; flip++) {
                membership.view = flip % 2 == 0 ? eight : ten;
            }
            membership.view = eight;
            flipping.set(false);
            for (Future<String> checker : checkers) {
                assertThat(checker.get(60, TimeUnit.SECONDS)).isEqualTo("ok");
            }
        } finally {
            pool.shutdownNow();
        }
        for (String key : keys) {
            assertThat(cache.owner(key)).as(key).isEqualTo(Rendezvous.owner(key, eight));
        }
    }

    static MembershipView view(long version, int size) {
        List<Member> members = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            members.add(Member.of("member-" + i));
        }
        return MembershipView.of(version, members);
    }

    /** A membership whose view the test replaces, and can make unavailable. */
    private static final class SwitchableMembership implements Membership {

        private final Member self;
        volatile MembershipView view;
        volatile boolean unavailable;

        SwitchableMembership(Member self, MembershipView view) {
            this.self = self;
            this.view = view;
        }

        @Override
        public Member self() {
            return self;
        }

        @Override
        public MembershipView members() {
            if (unavailable) {
                throw new MembershipUnavailableException("the test made it unavailable");
            }
            return view;
        }
    }
}
