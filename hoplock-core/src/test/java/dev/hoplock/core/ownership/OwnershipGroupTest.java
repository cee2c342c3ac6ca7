package dev.hoplock.core.ownership;

import dev.hoplock.core.backend.AsyncBackend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.core.backend.StoreCapabilities;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.core.fencing.Fence;
import dev.hoplock.core.fencing.StaleTokenException;
import dev.hoplock.core.time.VirtualTime;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import static java.util.Objects.requireNonNull;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Live membership over the in-memory backend in virtual time: join, steady state, leave, partition, tokens. */
class OwnershipGroupTest {

    private static final Duration TTL = Duration.ofSeconds(30);
    private final VirtualTime time = new VirtualTime(Instant.parse("2026-12-01T00:00:00Z"));
    private final InMemoryBackend store = new InMemoryBackend();
    private final Map<String, OwnershipGroup> groups = new LinkedHashMap<>();
    private final Map<String, Cuttable> links = new HashMap<>();
    private final List<String> keys = new ArrayList<>();
    private final Map<String, List<OwnershipEvent>> events = new HashMap<>();
    /** No key has two acting owners; tokens rise at every change of owner and never fall under the same one. */
    private final ActingOwnerCheck checked = new ActingOwnerCheck(time, groups, keys).sameOwnerKeepsItsToken();

    OwnershipGroupTest() {
        for (int i = 0; i < 200; i++) {
            keys.add("customer-" + i);
        }
    }

    private OwnershipGroup member(String id) {
        Cuttable link = new Cuttable(AsyncBackend.on(store, Runnable::run));
        links.put(id, link);
        OwnershipGroup group = OwnershipGroup.builder(link, "billing").memberId(id).address(id + ":8080")
                .owner(id + "-process").ttl(TTL).timeSource(time).scheduler(time).eventExecutor(Runnable::run)
                .build();
        groups.put(id, group);
        List<OwnershipEvent> seen = new ArrayList<>();
        events.put(id, seen);
        group.addListener(seen::add);
        group.start();
        return group;
    }

    /** Advances virtual time in 100 ms steps, checking after each that no key has two acting owners. */
    private void run(Duration duration) {
        checked.run(duration);
    }

    /**
     * Closes {@code group} while virtual time runs, and checks that its leave finished: the leave is driven by the
     * group's scheduler, this test's virtual time, which a blocking {@code close()} on the test's thread does not
     * advance (it waited out its real-time bound, 20 s, and logged that the leave did not finish).
     */
    private void closeInVirtualTime(OwnershipGroup group) {
        CompletableFuture<Void> closing = group.closeAsync();
        for (int step = 0; step < 600 && !closing.isDone(); step++) {
            run(Duration.ofMillis(100));
        }
        assertThat(closing).as("the leave finished within a minute of virtual time").isDone();
    }

    private OwnershipGroup group(String id) {
        return requireNonNull(groups.get(id), () -> "no member " + id);
    }

    private Cuttable link(String id) {
        return requireNonNull(links.get(id), () -> "no link of " + id);
    }

    private long owned(String id) {
        return keys.stream().filter(group(id)::isOwner).count();
    }

    private long ownedByAnyone() {
        return keys.stream().filter(k -> groups.values().stream().anyMatch(g -> g.isOwner(k))).count();
    }

    @Test
    void threeMembersSplitTheKeysAndEachKeyHasOneOwner() {
        member("a");
        member("b");
        member("c");
        run(Duration.ofSeconds(40));
        assertThat(ownedByAnyone()).isEqualTo(keys.size());
        assertThat(owned("a")).isPositive();
        assertThat(owned("b")).isPositive();
        assertThat(owned("c")).isPositive();
        MembershipView view = group("a").members();
        assertThat(view.members()).extracting(Member::id).containsExactly("a", "b", "c");
        assertThat(events.get("a")).filteredOn(e -> e instanceof OwnershipEvent.MembershipChanged changed
                && changed.current().size() == 3).isNotEmpty();
        assertThat(events.get("a")).filteredOn(e -> e instanceof OwnershipEvent.Settled settled
                && settled.epoch() == view.version()).hasSize(1);
        for (String key : keys) {
            Member owner = Rendezvous.owner(key, view).orElseThrow();
            assertThat(group(owner.id()).isOwner(key)).isTrue();
            assertThat(group("a").owner(key)).contains(owner);
        }
    }

    /** Rule ids: M7. */
    @Test
    void aGracefulLeaveHandsItsKeysOverWithinSeconds() {
        member("a");
        member("b");
        member("c");
        // A new group's registry is young for one TTL (rule M3): the hand-over below starts from a settled group.
        run(Duration.ofSeconds(70));
        group("b").closeAsync();
        // Within one renew interval and a poll: every remaining member reads the new epoch and acknowledges it.
        run(Duration.ofSeconds(12));
        groups.remove("b");
        assertThat(ownedByAnyone()).isEqualTo(keys.size());
        assertThat(group("a").members().members()).extracting(Member::id).containsExactly("a", "c");
    }

    @Test
    void aCutOffMemberStopsAtItsDeadlineAndIsDroppedThenItsKeysAreOwnedAgain() {
        member("a");
        member("b");
        member("c");
        run(Duration.ofSeconds(40));
        long ownedByB = owned("b");
        assertThat(ownedByB).isPositive();
        link("b").cut = true;
        run(Duration.ofSeconds(30));
        assertThat(owned("b")).as("b self-fenced").isZero();
        run(Duration.ofSeconds(70));
        assertThat(group("a").members().members()).extracting(Member::id).containsExactly("a", "c");
        assertThat(ownedByAnyone()).isEqualTo(keys.size());
        link("b").cut = false;
        run(Duration.ofSeconds(60));
        assertThat(group("a").members().members()).extracting(Member::id).containsExactly("a", "b", "c");
        assertThat(owned("b")).isPositive();
        assertThat(ownedByAnyone()).isEqualTo(keys.size());
    }

    /**
     * Issue 23, fix 6: a member whose store stops answering is told it stopped acting at the instant it stops (its
     * view's confirmation lapses), once, with the view whose keys it no longer acts on; not 20 s later when the store
     * answers again. When the store answers again, no second stop is told; the new membership is.
     */
    @Test
    void aCutOffMemberIsToldAtTheInstantItStopsActingNotWhenTheStoreAnswersAgain() {
        member("a");
        member("b");
        member("c");
        run(Duration.ofSeconds(40));
        assertThat(group("b").isMember()).isTrue();
        List<Long> toldAt = new ArrayList<>();
        List<Boolean> actingWhenTold = new ArrayList<>();
        group("b").addListener(event -> {
            if (event instanceof OwnershipEvent.ActingStopped) {
                toldAt.add(time.nanoTime());
                actingWhenTold.add(group("b").isMember() || keys.stream().anyMatch(group("b")::isOwner));
            }
        });
        List<OwnershipEvent> seenByB = requireNonNull(events.get("b"), "b's events");
        int before = seenByB.size();

        link("b").cut = true;
        long lastActing = time.nanoTime();
        long firstNotActing = -1;
        for (int step = 0; step < 600 && firstNotActing < 0; step++) {
            run(Duration.ofMillis(100));
            if (group("b").isMember() || keys.stream().anyMatch(group("b")::isOwner)) {
                lastActing = time.nanoTime();
            } else {
                firstNotActing = time.nanoTime();
            }
        }
        assertThat(firstNotActing).as("b stopped acting").isPositive();
        assertThat(toldAt).as("told once, no later than the instant it stopped acting").hasSize(1);
        assertThat(toldAt.get(0)).isGreaterThan(lastActing).isLessThanOrEqualTo(firstNotActing);
        assertThat(actingWhenTold).as("not told early: it no longer acted when told").containsExactly(false);
        OwnershipEvent.ActingStopped stopped = seenByB.subList(before, seenByB.size()).stream()
                .filter(OwnershipEvent.ActingStopped.class::isInstance).map(OwnershipEvent.ActingStopped.class::cast)
                .findFirst().orElseThrow();
        assertThat(stopped.view().members()).extracting(Member::id).contains("b");
        assertThat(keys.stream().filter(k -> Rendezvous.isOwner(k, "b", stopped.view())).count())
                .as("the keys it no longer acts on").isPositive();

        run(Duration.ofSeconds(100));   // the others drop b meanwhile
        link("b").cut = false;
        run(Duration.ofSeconds(60));
        List<OwnershipEvent> after = seenByB.subList(before, seenByB.size());
        assertThat(after).filteredOn(OwnershipEvent.ActingStopped.class::isInstance).as("no second stop").hasSize(1);
        assertThat(after).filteredOn(e -> e instanceof OwnershipEvent.MembershipChanged changed
                && changed.current().member("b").isPresent()).as("the new membership is told").isNotEmpty();
        assertThat(owned("b")).isPositive();
    }

    @Test
    void aJoiningMemberTakesOnlyTheKeysItWinsAndTokensWorkWithAFence() {
        member("a");
        member("b");
        run(Duration.ofSeconds(40));
        Map<String, Long> before = new HashMap<>();
        for (String key : keys) {
            before.put(key, group("a").token(key).orElse(group("b").token(key).orElse(-1)));
        }
        member("c");
        run(Duration.ofSeconds(40));
        MembershipView view = group("a").members();
        assertThat(view.size()).isEqualTo(3);
        for (String key : keys) {
            String owner = Rendezvous.owner(key, view).orElseThrow().id();
            long token = group(owner).token(key).orElseThrow();
            if (owner.equals("c")) {
                assertThat(token).isGreaterThan(before.get(key));
            } else {
                assertThat(token).as("a key that did not move keeps its token").isEqualTo(before.get(key));
            }
        }
        Fence fence = new MemoryFence();
        String moved = keys.stream().filter(k -> group("c").isOwner(k)).findFirst().orElseThrow();
        fence.check(moved, group("c").token(moved).orElseThrow());
        assertThatThrownBy(() -> fence.check(moved, requireNonNull(before.get(moved), "token before c joined")))
                .isInstanceOf(StaleTokenException.class);
    }

    /** Rule ids: M5. */
    @Test
    void aClaimLosesWhenItsKeyMovesAndHoldsTheAcknowledgementUntilClosed() {
        member("a");
        // Rule M3: the member that creates a new group's registry acts only after a whole TTL.
        run(Duration.ofSeconds(40));
        String key = keys.stream().filter(k -> {
            MembershipView two = MembershipView.of(9, List.of(Member.of("a"), Member.of("b")));
            return Rendezvous.owner(k, two).orElseThrow().id().equals("b");
        }).findFirst().orElseThrow();
        OwnershipClaim claim = group("a").claim(key, false).orElseThrow();
        assertThat(claim.isValid()).isTrue();
        member("b");
        // Within one renew interval and a poll, a reads the new epoch.
        run(Duration.ofSeconds(12));
        assertThat(claim.isValid()).isFalse();
        assertThat(group("b").isOwner(key)).as("b waits while a's claim is open").isFalse();
        claim.close();
        run(Duration.ofSeconds(5));
        assertThat(group("b").isOwner(key)).isTrue();
    }

    /** Rule ids: M5. A claim for work not bound to a thread runs its loss callback once, when its key moves. */
    @Test
    void aCallbackClaimIsToldOnceWhenItsKeyMovesAndNeverAfterItClosed() {
        member("a");
        run(Duration.ofSeconds(40));
        List<String> twoOwners = keys.stream().filter(k -> {
            MembershipView two = MembershipView.of(9, List.of(Member.of("a"), Member.of("b")));
            return Rendezvous.owner(k, two).orElseThrow().id().equals("b");
        }).limit(2).toList();
        java.util.concurrent.atomic.AtomicInteger moved = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger closedFirst = new java.util.concurrent.atomic.AtomicInteger();
        OwnershipClaim claim = group("a").claim(twoOwners.get(0), moved::incrementAndGet).orElseThrow();
        OwnershipClaim closed = group("a").claim(twoOwners.get(1), closedFirst::incrementAndGet).orElseThrow();
        closed.close();
        assertThat(claim.isValid()).isTrue();

        member("b");
        run(Duration.ofSeconds(12));

        assertThat(claim.isValid()).isFalse();
        assertThat(moved).as("told once, at the move").hasValue(1);
        assertThat(closedFirst).as("closed before the move: never told").hasValue(0);
        assertThat(group("b").isOwner(twoOwners.get(0))).as("b waits while a's claim is open (M5)").isFalse();
        claim.close();
        run(Duration.ofSeconds(5));
        assertThat(group("b").isOwner(twoOwners.get(0))).isTrue();
        assertThat(moved).hasValue(1);
    }

    @Test
    void unavailableBeforeTheFirstRead() {
        OwnershipGroup g = OwnershipGroup.builder(AsyncBackend.on(store, Runnable::run), "billing").memberId("z")
                .timeSource(time).scheduler(time).eventExecutor(Runnable::run).build();
        assertThatThrownBy(g::members).isInstanceOf(MembershipUnavailableException.class)
                .hasMessageContaining("billing");
        assertThat(g.isOwner("k")).isFalse();
    }

    /**
     * E0 for a group: a member whose store says it does not honour conditional writes sends no registry request at
     * all (before the fix it read the registry and could write it: ending a young registry's grace, removing a
     * member), while a member on a verified link joins and owns every key.
     */
    @Test
    void e0_aMemberOnAStoreRefusedForConditionalWritesNeverTouchesTheRegistry() {
        member("a");
        Cuttable refusedLink = new Cuttable(AsyncBackend.on(store, Runnable::run));
        refusedLink.verifyFailure = new BackendException(BackendException.Kind.CONDITIONAL_WRITES_NOT_SUPPORTED,
                "this store ignores If-Match");
        links.put("x", refusedLink);
        OwnershipGroup x = OwnershipGroup.builder(refusedLink, "billing").memberId("x").address("x:8080")
                .owner("x-process").ttl(TTL).timeSource(time).scheduler(time).eventExecutor(Runnable::run).build();
        groups.put("x", x);
        x.start();
        run(TTL.multipliedBy(3));
        assertThat(refusedLink.registryRequests).as("registry requests of the refused member").isZero();
        assertThat(refusedLink.writes).as("writes of the refused member").isZero();
        assertThat(owned("a")).isEqualTo(keys.size());
        assertThat(keys).noneMatch(x::isOwner);
        closeInVirtualTime(x);
        assertThat(refusedLink.writes).as("a refused member that leaves writes nothing either").isZero();
    }

    /**
     * E0 for a group, current reads: a member whose store reports reads that may lag (a replicated NATS bucket) is
     * refused before any request of its own: no registry request and no write at all, its reason (with the store's
     * fix) told once as a problem, while the same store serves an elector, which does not need current reads.
     * Without {@code CurrentReadsRequired} the member joins and owns keys over such a store.
     */
    @Test
    void e0_aMemberOnAStoreWhoseReadsMayLagNeverTouchesTheRegistry() {
        member("a");
        Cuttable laggingLink = new Cuttable(AsyncBackend.on(store, Runnable::run));
        laggingLink.verifyAnswer = StoreCapabilities.builder("nats://bucket R3")
                .reads(StoreCapabilities.Reads.MAY_LAG, "3 replicas: a deposed stream leader may answer from behind;"
                        + " use a one-replica bucket").build();
        links.put("x", laggingLink);
        OwnershipGroup x = OwnershipGroup.builder(laggingLink, "billing").memberId("x").address("x:8080")
                .owner("x-process").ttl(TTL).timeSource(time).scheduler(time).eventExecutor(Runnable::run).build();
        List<OwnershipEvent> told = new ArrayList<>();
        x.addListener(told::add);
        groups.put("x", x);
        x.start();
        run(TTL.multipliedBy(3));
        assertThat(laggingLink.registryRequests).as("registry requests of the refused member").isZero();
        assertThat(laggingLink.writes).as("writes of the refused member").isZero();
        assertThat(owned("a")).isEqualTo(keys.size());
        assertThat(keys).noneMatch(x::isOwner);
        assertThat(told).filteredOn(OwnershipEvent.Problem.class::isInstance).hasSize(1).first()
                .extracting(e -> ((OwnershipEvent.Problem) e).message()).asString()
                .contains("billing/members/x", "refused");
        assertThatThrownBy(x::members).isInstanceOf(MembershipUnavailableException.class)
                .hasMessageContaining("refused");
        closeInVirtualTime(x);
        assertThat(laggingLink.writes).as("a refused member that leaves writes nothing either").isZero();

        dev.hoplock.core.election.Elector elector = dev.hoplock.core.election.Elector
                .builder(laggingLink, "billing/leader").owner("x-process").ttl(TTL).timeSource(time).scheduler(time)
                .eventExecutor(Runnable::run).build();
        elector.start();
        run(TTL);
        assertThat(elector.isLeader()).as("an elector needs no current reads").isTrue();
        elector.close();
    }

    /** A link that can be cut: every request fails fast while cut. */
    static final class Cuttable implements AsyncBackend {
        private final AsyncBackend inner;
        volatile boolean cut;
        /** When set, {@link #verify()} fails with it (a store's own "no"). */
        volatile @Nullable BackendException verifyFailure;
        /** When set (and no failure is), {@link #verify()} answers it. */
        volatile @Nullable StoreCapabilities verifyAnswer;
        /** Requests for the group's registry key, and every write or delete, sent through this link. */
        volatile int registryRequests;
        volatile int writes;

        Cuttable(AsyncBackend inner) {
            this.inner = inner;
        }

        private <T> CompletionStage<T> refused() {
            return CompletableFuture.failedFuture(new BackendException(BackendException.Kind.UNREACHABLE, "cut"));
        }

        @Override
        public CompletionStage<StoreCapabilities> verify() {
            BackendException failure = verifyFailure;
            StoreCapabilities answer = verifyAnswer;
            return failure != null ? CompletableFuture.failedFuture(failure)
                    : answer != null ? CompletableFuture.completedFuture(answer) : inner.verify();
        }

        @Override
        public CompletionStage<Optional<StoredObject>> read(String key, Duration timeout) {
            count(key, false);
            return cut ? refused() : inner.read(key, timeout);
        }

        @Override
        public CompletionStage<WriteResult> write(String key, Handle expected, byte[] content, Duration timeout) {
            count(key, true);
            return cut ? refused() : inner.write(key, expected, content, timeout);
        }

        private synchronized void count(String key, boolean write) {
            if (key.endsWith("/registry")) {
                registryRequests++;
            }
            if (write) {
                writes++;
            }
        }

        @Override
        public CompletionStage<DeleteResult> delete(String key, Handle expected, Duration timeout) {
            count(key, true);
            return cut ? refused() : inner.delete(key, expected, timeout);
        }

        @Override
        public String describe() {
            return "cuttable";
        }
    }

    /** The simplest fence: the highest token per resource, in memory. */
    static final class MemoryFence implements Fence {
        private final Map<String, Long> highest = new HashMap<>();

        @Override
        public synchronized void check(String resource, long token) {
            Long seen = highest.get(resource);
            if (seen != null && token < seen) {
                throw new StaleTokenException(resource, token, seen);
            }
            highest.put(resource, token);
        }
    }
}
