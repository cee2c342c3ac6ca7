package dev.hoplock.spring.ownership;

import dev.hoplock.core.backend.AsyncBackend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.core.backend.StoreCapabilities;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.core.ownership.OwnershipGroup;
import dev.hoplock.core.time.VirtualTime;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 23, fix 6, as the application sees it: a member cut off from its store gets an {@link OwnershipChange} (the
 * {@code OwnershipChangedEvent} of the starter) at the instant it stops acting, with the keys it lost, and not 20 s
 * later when the store answers again; then one more change only because something changed (the keys it owns again),
 * never the same keys lost twice. Three members over the in-memory store in virtual time.
 */
class HoplockOwnershipStopTest {

    private static final Duration TTL = Duration.ofSeconds(30);
    private static final Duration STEP = Duration.ofMillis(100);

    private final VirtualTime time = new VirtualTime(Instant.parse("2026-12-01T00:00:00Z"));
    private final InMemoryBackend store = new InMemoryBackend();
    private final List<HoplockOwnership> members = new ArrayList<>();
    private final List<String> keys = new ArrayList<>();

    HoplockOwnershipStopTest() {
        for (int i = 0; i < 200; i++) {
            keys.add("customer-" + i);
        }
    }

    @AfterEach
    void close() {
        members.forEach(m -> m.closeAsync());
        time.advance(Duration.ofSeconds(10));
    }

    private HoplockOwnership member(String id, AsyncBackend link) {
        HoplockOwnership ownership = new HoplockOwnership(OwnershipGroup.builder(link, "billing").memberId(id)
                .address(id + ":8080").owner(id + "-process").ttl(TTL).timeSource(time).scheduler(time)
                .eventExecutor(Runnable::run).build());
        members.add(ownership);
        ownership.start();
        return ownership;
    }

    private Set<String> owned(HoplockOwnership member) {
        Set<String> owned = new HashSet<>();
        for (String key : keys) {
            if (member.isOwner(key)) {
                owned.add(key);
            }
        }
        return owned;
    }

    /** Members a, b (over {@code link}) and c, run until their first registry is no longer young; returns b. */
    private HoplockOwnership settledThreeWithB(Cuttable link) {
        member("a", AsyncBackend.on(store, Runnable::run));
        HoplockOwnership b = member("b", link);
        member("c", AsyncBackend.on(store, Runnable::run));
        time.advance(Duration.ofSeconds(70));
        return b;
    }

    @Test
    void aCutOffMemberIsToldAtTheInstantItStopsActingAndNotAgainWhenTheStoreAnswers() {
        Cuttable link = new Cuttable(AsyncBackend.on(store, Runnable::run));
        HoplockOwnership b = settledThreeWithB(link);
        Set<String> ownedByB = owned(b);   // also makes every key "seen" by b's bean
        assertThat(ownedByB).isNotEmpty();

        List<OwnershipChange> changes = new ArrayList<>();
        List<Long> toldAt = new ArrayList<>();
        b.addChangeListener(change -> {
            changes.add(change);
            toldAt.add(time.nanoTime());
        });

        link.cut = true;
        long lastActing = time.nanoTime();
        long firstNotActing = -1;
        for (int step = 0; step < 600 && firstNotActing < 0; step++) {
            time.advance(STEP);
            if (b.isMember() || !owned(b).isEmpty()) {
                lastActing = time.nanoTime();
            } else {
                firstNotActing = time.nanoTime();
            }
        }
        assertThat(firstNotActing).isPositive();
        assertThat(changes).as("told once, when it stopped").singleElement().satisfies(stop -> {
            assertThat(stop.stoppedActing()).isTrue();
            assertThat(stop.lost()).containsExactlyInAnyOrderElementsOf(ownedByB);
            assertThat(stop.gained()).isEmpty();
            assertThat(stop.joined()).isEmpty();
            assertThat(stop.left()).isEmpty();
        });
        assertThat(toldAt.get(0)).as("no later than the instant it stopped acting")
                .isGreaterThan(lastActing).isLessThanOrEqualTo(firstNotActing);

        time.advance(Duration.ofSeconds(100));   // the others drop b; b is still cut off: nothing new to tell
        assertThat(changes).hasSize(1);

        link.cut = false;
        for (int step = 0; step < 600 && owned(b).isEmpty(); step++) {
            time.advance(STEP);
        }
        assertThat(owned(b)).as("b owns keys again").isNotEmpty();
        List<OwnershipChange> after = changes.subList(1, changes.size());
        assertThat(after).as("something changed: told").isNotEmpty();
        assertThat(after).allSatisfy(change -> assertThat(change.stoppedActing()).isFalse());
        assertThat(after).flatMap(OwnershipChange::lost).as("no key lost twice").doesNotContainAnyElementsOf(ownedByB);
        assertThat(after).flatMap(OwnershipChange::gained).as("the keys it owns again are gained")
                .containsAll(owned(b));
        assertThat(after).as("gainedOf and lostOf agree with gained and lost after the stop (review fix 1.1)")
                .allSatisfy(change -> {
                    assertThat(change.gainedOf(keys)).isEqualTo(change.gained());
                    assertThat(change.lostOf(keys)).isEqualTo(change.lost());
                });
    }

    /**
     * Review 1.2: a view adopted while this instance does not act under it gains no key. b's own member lease is cut
     * off (the registry still answers): its liveness term ends and it stops acting; then d joins, and b adopts the new
     * view, in which it is still registered, under a term it no longer holds. No change may report a key gained while
     * b's gate runs none (before the fix, every view after the stop was taken as "acting again" and reported every key
     * b owned in it as gained); when its lease answers again and it registers anew, the keys it owns are gained.
     */
    @Test
    void aViewAdoptedWhileNotActingGainsNoKey() {
        Cuttable link = new Cuttable(AsyncBackend.on(store, Runnable::run));
        HoplockOwnership b = settledThreeWithB(link);
        assertThat(owned(b)).isNotEmpty();   // also makes every key "seen" by b's bean

        record Told(OwnershipChange change, boolean memberWhenTold) {
        }
        List<Told> told = new ArrayList<>();
        b.addChangeListener(change -> told.add(new Told(change, b.isMember())));

        link.leasesCut = true;
        for (int step = 0; step < 600 && b.isMember(); step++) {
            time.advance(STEP);
        }
        assertThat(b.isMember()).as("b's liveness term ended").isFalse();
        member("d", AsyncBackend.on(store, Runnable::run));
        for (int step = 0; step < 100 && told.stream().noneMatch(t -> t.change().current().member("d").isPresent());
             step++) {
            time.advance(STEP);
        }
        assertThat(told).as("b adopted the view d joined, still registered in it, while not acting")
                .anySatisfy(t -> {
                    assertThat(t.change().joined()).extracting(m -> m.id()).contains("d");
                    assertThat(t.change().current().member("b")).isPresent();
                    assertThat(t.memberWhenTold()).isFalse();
                });
        assertThat(told).as("no key gained while b does not act").allSatisfy(t -> {
            if (!t.memberWhenTold()) {
                assertThat(t.change().gained()).isEmpty();
                assertThat(t.change().gainedOf(keys)).isEmpty();
            }
        });

        link.leasesCut = false;
        for (int step = 0; step < 900 && owned(b).isEmpty(); step++) {
            time.advance(STEP);
        }
        assertThat(owned(b)).as("b owns keys again").isNotEmpty();
        assertThat(told).filteredOn(Told::memberWhenTold).flatMap(t -> t.change().gained())
                .as("the keys it owns again are gained once it acts").containsAll(owned(b));
    }

    /** A link that can be cut: every request fails fast while cut (or, with {@link #leasesCut}, every lease's). */
    static final class Cuttable implements AsyncBackend {
        private final AsyncBackend inner;
        volatile boolean cut;
        /** Every request for a member lease fails fast; the registry answers. */
        volatile boolean leasesCut;

        private boolean cut(String key) {
            return cut || leasesCut && !key.endsWith("/registry");
        }

        Cuttable(AsyncBackend inner) {
            this.inner = inner;
        }

        private <T> CompletionStage<T> refused() {
            return CompletableFuture.failedFuture(new BackendException(BackendException.Kind.UNREACHABLE, "cut"));
        }

        @Override
        public CompletionStage<StoreCapabilities> verify() {
            return inner.verify();
        }

        @Override
        public CompletionStage<Optional<StoredObject>> read(String key, Duration timeout) {
            return cut(key) ? refused() : inner.read(key, timeout);
        }

        @Override
        public CompletionStage<WriteResult> write(String key, Handle expected, byte[] content, Duration timeout) {
            return cut(key) ? refused() : inner.write(key, expected, content, timeout);
        }

        @Override
        public String describe() {
            return "cuttable " + inner.describe();
        }

        @Override
        public CompletionStage<DeleteResult> delete(String key, Handle expected, Duration timeout) {
            return cut(key) ? refused() : inner.delete(key, expected, timeout);
        }
    }
}
