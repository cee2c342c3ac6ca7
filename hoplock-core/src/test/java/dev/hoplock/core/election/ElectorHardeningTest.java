package dev.hoplock.core.election;

import dev.hoplock.core.FaultyBackend;
import dev.hoplock.core.Holder;
import dev.hoplock.core.SkewedWallClock;
import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.election.Cluster.Node;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static dev.hoplock.core.election.Cluster.MARGIN;
import static dev.hoplock.core.election.Cluster.TTL;
import static org.assertj.core.api.Assertions.assertThat;

/** Regression tests of the defects of issue 9, each on virtual time with a backend that answers at once. */
class ElectorHardeningTest {

    private final Cluster cluster = new Cluster();

    /** Starts a node and runs what falls due: the first node started leads, the later ones follow it. */
    private Node started(String owner) {
        Node node = cluster.node(owner).start();
        cluster.time.runDue();
        return node;
    }

    private static List<Class<?>> termEvents(Node node) {
        return node.events.stream()
                .filter(e -> e instanceof ElectionEvent.Acquired || e instanceof ElectionEvent.Lost)
                .<Class<?>>map(Object::getClass).toList();
    }

    // ---- 1. every term ends before the next begins

    @Test
    void aTermPastItsDeadlineEndsWithItsCauseBeforeTheNextBegins() {
        // The timer thread stalls across the deadline; when it resumes, the renewal step runs before the fence timer
        // and (the store answering at once) a new term used to replace the old one without a Lost event, and the old
        // term's scopes were never told.
        HeldScheduler timers = new HeldScheduler(cluster.time);
        Node a = cluster.node("a", Duration.ZERO, b -> b.scheduler(timers)).start();
        cluster.time.runDue();
        LeaderScope work = a.elector.enterLeaderScope(false).orElseThrow();
        timers.hold();
        cluster.advance(TTL);
        assertThat(a.elector.isLeader()).isFalse();
        timers.release();
        cluster.time.runDue();

        assertThat(work.wasLost()).as("the first term's scope was told").isTrue();
        assertThat(termEvents(a)).containsExactly(ElectionEvent.Acquired.class, ElectionEvent.Lost.class,
                ElectionEvent.Acquired.class);
        assertThat(a.events(ElectionEvent.Lost.class)).singleElement()
                .extracting(ElectionEvent.Lost::cause).isEqualTo(LossCause.DEADLINE_PASSED);
        assertThat(a.elector.currentLease().orElseThrow().generation()).isEqualTo(2);
        work.close();
    }

    // ---- 9. lead only while the deadline holds on the monotonic clock and on the wall clock

    @Test
    void aMachineThatWakesFromSuspendDoesNotLeadOnItsStoppedMonotonicClock() {
        // During a VM suspend or checkpoint the monotonic clock stands still while the wall clock goes on: on waking,
        // no monotonic time has passed, but the lease written before expired long ago in the store.
        SkewedWallClock clock = new SkewedWallClock(cluster.time);
        Node a = cluster.node("a", Duration.ZERO, b -> b.timeSource(clock)).start();
        cluster.time.runDue();
        cluster.advance(Duration.ofSeconds(1));
        LeaderScope work = a.elector.enterLeaderScope(false).orElseThrow();
        assertThat(a.elector.isLeader()).isTrue();

        clock.step(TTL.minus(MARGIN).minusSeconds(2));
        assertThat(a.elector.isLeader()).as("1 s of wall time left").isTrue();
        clock.step(Duration.ofSeconds(1));
        assertThat(a.elector.isLeader()).as("the wall deadline has passed").isFalse();
        assertThat(work.isLeading()).isFalse();
        assertThat(a.elector.timeLeft()).isZero();
        assertThat(a.elector.enterLeaderScope(false)).isEmpty();

        // The next step of the loop (the renewal due at 10 s) ends the term with its cause before it does anything else.
        cluster.advance(Cluster.RENEW);
        assertThat(work.wasLost()).isTrue();
        assertThat(a.events(ElectionEvent.Lost.class)).first()
                .extracting(ElectionEvent.Lost::cause).isEqualTo(LossCause.DEADLINE_PASSED);
        assertThat(termEvents(a).subList(0, 2)).containsExactly(ElectionEvent.Acquired.class, ElectionEvent.Lost.class);
        work.close();
    }

    @Test
    void theFenceTimerEndsTheTermWhenTheWallDeadlinePassesFirst() {
        // The wall clock runs twice as fast as the monotonic one and the renewal hangs: the wall deadline (27 s of wall
        // time after the write) passes at 13.5 s of monotonic time, long before the monotonic deadline at 27 s.
        SkewedWallClock clock = new SkewedWallClock(cluster.time);
        Node a = cluster.node("a", Duration.ZERO, b -> b.timeSource(clock)).start();
        clock.wallRate(2.0);
        cluster.time.runDue();
        a.backend.mode = FaultyBackend.Mode.HANG;
        cluster.advance(Duration.ofMillis(13_400));
        assertThat(a.elector.isLeader()).isTrue();
        cluster.advance(Duration.ofMillis(200));
        assertThat(a.elector.isLeader()).isFalse();
        // The fence timer looks at least once per poll: the term ends within a poll of the wall deadline, before the
        // hung renewal times out (at 17 s).
        cluster.advance(Cluster.POLL);
        assertThat(a.events(ElectionEvent.Lost.class)).singleElement()
                .extracting(ElectionEvent.Lost::cause).isEqualTo(LossCause.DEADLINE_PASSED);
    }

    @Test
    void aBackwardWallStepIsBoundedByTheMonotonicDeadline() {
        SkewedWallClock clock = new SkewedWallClock(cluster.time);
        Node a = cluster.node("a", Duration.ZERO, b -> b.timeSource(clock)).start();
        cluster.time.runDue();
        a.backend.mode = FaultyBackend.Mode.HANG;
        clock.step(Duration.ofHours(-1));
        cluster.advance(TTL.minus(MARGIN).minusMillis(1));
        assertThat(a.elector.isLeader()).isTrue();
        cluster.advance(Duration.ofMillis(1));
        assertThat(a.elector.isLeader()).isFalse();
    }

    // ---- 2. step-down passes through the same gate as close: leader work first, then the release

    /** Rule ids: E7. */
    @Test
    void stepDownReleasesOnlyAfterLeaderWorkHasStopped() throws Exception {
        Node a = started("a");
        Node b = started("b");
        LeaderScope work = a.elector.enterLeaderScope(false).orElseThrow();

        assertThat(a.elector.stepDown()).isTrue();
        assertThat(work.wasLost()).isTrue();
        cluster.advance(Duration.ofSeconds(1));
        assertThat(cluster.stored().isReleased()).as("not released while leader work runs").isFalse();
        assertThat(b.elector.isLeader()).isFalse();

        work.close();
        cluster.time.runDue();
        assertThat(cluster.stored().isReleased()).isTrue();
        cluster.advanceUntil(b.elector::isLeader, Cluster.POLL.plusMillis(200));
    }

    /** Rule ids: E7. */
    @Test
    void stepDownKeepsTheLeaseWhenLeaderWorkDoesNotStopWithinTheReleaseTimeout() throws Exception {
        Node a = started("a");
        Node b = started("b");
        LeaderScope stuck = a.elector.enterLeaderScope(false).orElseThrow();

        assertThat(a.elector.stepDown()).isTrue();
        cluster.advance(Duration.ofSeconds(2).plus(Cluster.POLL));
        stuck.close();
        cluster.advance(Cluster.POLL);
        assertThat(cluster.stored().isReleased()).as("the lease is left to expire").isFalse();
        assertThat(cluster.stored().owner()).isEqualTo("a");
        assertThat(b.elector.isLeader()).isFalse();
    }

    @Test
    void closeWaitsForScopesLeftOpenByAnEarlierTerm() throws Exception {
        Node a = cluster.node("a").start();
        cluster.time.runDue();
        LeaderScope first = a.elector.enterLeaderScope(false).orElseThrow();
        a.backend.mode = FaultyBackend.Mode.FAIL;
        cluster.advance(TTL);
        assertThat(first.wasLost()).isTrue();
        a.backend.mode = FaultyBackend.Mode.NORMAL;
        cluster.advanceUntil(a.elector::isLeader, TTL.multipliedBy(2));
        assertThat(a.elector.currentLease().orElseThrow().generation()).isEqualTo(2);

        java.util.concurrent.CompletableFuture<Void> closed = a.elector.closeAsync();
        cluster.advance(Duration.ofSeconds(1));
        assertThat(cluster.stored().isReleased()).as("the first term's work still runs").isFalse();
        first.close();
        cluster.time.runDue();
        assertThat(closed).isDone();
        assertThat(cluster.stored().isReleased()).isTrue();
    }

    // ---- 5. a step-down during a renewal that comes back refused keeps its release

    @Test
    void aStepDownDuringARenewalRefusedWithoutEffectStillReleases() throws Exception {
        Node a = started("a");
        Node b = started("b");
        a.backend.mode = FaultyBackend.Mode.DEFER;
        a.backend.refuseWithoutEffect = 1;
        cluster.advance(Cluster.RENEW);
        assertThat(a.elector.stepDown()).isTrue();

        a.backend.mode = FaultyBackend.Mode.NORMAL;
        a.backend.deliverDeferred();
        cluster.time.runDue();
        assertThat(cluster.stored().isReleased()).as("the 409 left our record in place: it is released").isTrue();
        cluster.advanceUntil(b.elector::isLeader, Cluster.POLL.plusMillis(200));
    }

    // ---- 4. a record deleted outside hoplock while held is not free at once

    private void deleteOutsideHoplock() throws Exception {
        Handle current = cluster.store.read(Cluster.KEY, Duration.ofSeconds(1)).orElseThrow().handle();
        assertThat(cluster.store.delete(Cluster.KEY, current, Duration.ofSeconds(1))).isEqualTo(DeleteResult.DELETED);
    }

    @Test
    void aRecordDeletedWhileHeldIsTakenOnlyAfterATtlOfObservedAbsence() throws Exception {
        Node a = started("a");
        Node b = started("b");
        assertThat(b.elector.holder()).get().extracting(Holder::owner).isEqualTo("a");
        // a's process hangs (it may still lead until its deadline, as far as b can know); an operator deletes the key.
        hangAndDelete(a);
        long deletedAt = cluster.time.nanoTime();

        cluster.advance(Cluster.POLL.plusMillis(100));
        assertThat(b.elector.isLeader()).as("the deleted record still counts as held").isFalse();
        assertThat(b.events(ElectionEvent.Problem.class)).singleElement().satisfies(p -> {
            assertThat(p.kind()).isEqualTo(ElectionEvent.ProblemKind.RECORD_DELETED);
            assertThat(p.message()).contains(Cluster.KEY).contains("deleted").contains("30s");
        });
        cluster.advanceUntil(b.elector::isLeader, TTL.plus(Cluster.POLL.multipliedBy(2)));
        assertThat(Duration.ofNanos(cluster.time.nanoTime() - deletedAt)).isGreaterThanOrEqualTo(TTL);
        assertThat(a.elector.isLeader()).as("a stopped at its own deadline, before b began").isFalse();
        assertThat(b.events(ElectionEvent.Problem.class)).hasSize(1);
    }

    /** Advances in steps of 100 ms for {@code duration}, asserting at every step that at most one node leads. */
    private void advanceWithAtMostOneLeader(Duration duration) {
        for (long step = 0; step < duration.toMillis() / 100; step++) {
            cluster.advance(Duration.ofMillis(100));
            assertThat(cluster.leaders()).as("leaders at %s", cluster.time.elapsed()).isLessThanOrEqualTo(1);
        }
    }

    /** {@code holder}'s process hangs (as far as others can know, it leads until its deadline); the key is deleted. */
    private void hangAndDelete(Node holder) throws Exception {
        holder.backend.mode = FaultyBackend.Mode.HANG;
        deleteOutsideHoplock();
    }

    /**
     * For {@code duration}, at most one node leads at every step; then {@code holder} no longer leads and
     * {@code follower} takes over within 5 s.
     */
    private void takesOverOnlyAfter(Node holder, Node follower, Duration duration) {
        advanceWithAtMostOneLeader(duration);
        assertThat(holder.elector.isLeader()).isFalse();
        cluster.advanceUntil(follower.elector::isLeader, Duration.ofSeconds(5));
    }

    @Test
    void theAbsenceIsObservedForATtlFromTheFirstReadThatFoundItAbsentNotFromTheLastSighting() throws Exception {
        // b last saw a's first version at 0 s, then could not read for 41 s (a partition) while a renewed. An operator
        // deletes the key at 41 s, right after a's renewal at 40 s: a leads until 67 s as far as anyone can know. b's
        // first read that finds the key absent (42 s) starts a TTL of observation; the old version b saw, long expired
        // and seen more than a TTL ago, says nothing about the versions b missed.
        Node a = started("a");
        Node b = started("b");
        b.backend.mode = FaultyBackend.Mode.FAIL;
        cluster.advance(Duration.ofSeconds(41));
        assertThat(a.elector.currentLease().orElseThrow().generation()).isEqualTo(1);
        deleteOutsideHoplock();
        b.backend.mode = FaultyBackend.Mode.NORMAL;
        long deletedAt = cluster.time.nanoTime();

        advanceWithAtMostOneLeader(TTL.plus(Cluster.POLL));
        cluster.advanceUntil(() -> cluster.leaders() == 1, Cluster.POLL.multipliedBy(2));
        assertThat(b.elector.isLeader()).as("b took the key, a TTL after it first found it absent").isTrue();
        assertThat(Duration.ofNanos(cluster.time.nanoTime() - deletedAt)).isGreaterThanOrEqualTo(TTL);
    }

    @Test
    void aDeletedRecordOfALongerTtlHolderIsTakenOnlyAfterItsExpiresAtByTheWallClock() throws Exception {
        // Mixed TTLs with agreeing wall clocks: a (TTL 60 s) writes expires_at = 60 s and leads until 57 s; b (TTL 30 s)
        // sees it, then finds it deleted at 1 s. Observing the absence for b's own TTL alone would create at 32 s.
        Node a = cluster.node("a", Duration.ZERO, builder -> builder.ttl(Duration.ofSeconds(60))).start();
        cluster.time.runDue();
        Node b = started("b");
        cluster.advance(Duration.ofSeconds(1));
        hangAndDelete(a);

        takesOverOnlyAfter(a, b, Duration.ofSeconds(60));
    }

    @Test
    void aDeletedRecordWhoseHolderMayHaveRenewedUnseenWaitsForTheValidityTheRecordShowed() throws Exception {
        // Mixed TTLs again, and b misses a's renewal at 10 s (expires_at 70 s; a leads until 67 s): its reads fail from
        // 1 s to 10.5 s and the key is deleted at 10.2 s. Waiting for the last seen expires_at (60 s) is not enough;
        // b waits for the validity that record showed when b first saw it (60 s) from its first absent read (~11 s).
        Node a = cluster.node("a", Duration.ZERO, builder -> builder.ttl(Duration.ofSeconds(60))).start();
        cluster.time.runDue();
        Node b = started("b");
        cluster.advance(Duration.ofSeconds(1));
        b.backend.mode = FaultyBackend.Mode.FAIL;
        cluster.advance(Duration.ofMillis(9_200));
        assertThat(cluster.stored().expiresAt()).as("a renewed at 10 s")
                .isEqualTo(cluster.time.wallNow().minusMillis(200).plusSeconds(60));
        hangAndDelete(a);
        cluster.advance(Duration.ofMillis(300));
        b.backend.mode = FaultyBackend.Mode.NORMAL;

        takesOverOnlyAfter(a, b, Duration.ofSeconds(60));
    }

    @Test
    void aFailedReadBreaksTheObservationOfAnAbsence() throws Exception {
        // b finds a's record deleted at 2 s, then cannot read from 2.5 s to 39.5 s. Meanwhile c, a fresh node, creates
        // the key at 20 s and renews it at 30 s (leading until 57 s), and the key is deleted again at 39 s. b's reads
        // at 2 s and 40 s both say "absent", but b saw nothing in between: the observation starts again at 40 s.
        Node a = started("a");
        Node b = started("b");
        cluster.advance(Duration.ofSeconds(1));
        hangAndDelete(a);
        cluster.advance(Duration.ofMillis(1_500));
        assertThat(b.events(ElectionEvent.Problem.class)).singleElement()
                .extracting(ElectionEvent.Problem::kind).isEqualTo(ElectionEvent.ProblemKind.RECORD_DELETED);
        b.backend.mode = FaultyBackend.Mode.FAIL;
        cluster.advance(Duration.ofMillis(17_500));
        Node c = started("c");
        assertThat(c.elector.isLeader()).isTrue();
        cluster.advance(Duration.ofSeconds(19));
        hangAndDelete(c);
        cluster.advance(Duration.ofMillis(500));
        b.backend.mode = FaultyBackend.Mode.NORMAL;

        takesOverOnlyAfter(c, b, Duration.ofSeconds(30));
    }

    @Test
    void aNodeThatNeverSawTheKeyCreatesItAtOnceAfterADeletion() throws Exception {
        Node a = started("a");
        Node b = started("b");
        a.elector.close();
        cluster.time.runDue();
        Node c = cluster.node("c");
        deleteOutsideHoplock();
        c.start();
        cluster.advanceUntil(() -> cluster.leaders() == 1, Cluster.POLL.plusMillis(200));
        assertThat(b.events(ElectionEvent.Problem.class)).isEmpty();
    }

    @Test
    void ourOwnLeaderSeeingItsRecordDeletedLosesAtOnce() throws Exception {
        Node a = cluster.node("a").start();
        cluster.time.runDue();
        deleteOutsideHoplock();
        cluster.advance(Cluster.RENEW);
        assertThat(a.events(ElectionEvent.Lost.class)).singleElement()
                .extracting(ElectionEvent.Lost::cause).isEqualTo(LossCause.DELETED);
    }

    // ---- 6. the loop never stops for good, whatever the scheduler throws

    @Test
    void aSchedulerThatRejectsTheRequestTimeoutDoesNotStopTheLoop() {
        // The renewal's timeout could not be scheduled: the loop used to keep the request marked active for ever,
        // so nothing ran again and the leader lost at its deadline, then never campaigned again.
        HeldScheduler timers = new HeldScheduler(cluster.time);
        Node a = cluster.node("a", Duration.ZERO, b -> b.scheduler(timers)).start();
        cluster.time.runDue();
        cluster.advance(Cluster.RENEW.minusMillis(1));
        timers.rejectNext = 1;
        cluster.advance(Duration.ofMinutes(2));
        assertThat(timers.rejected).isEqualTo(1);
        assertThat(a.elector.isLeader()).isTrue();
        assertThat(a.events(ElectionEvent.Lost.class)).isEmpty();
        assertThat(a.events(ElectionEvent.Problem.class)).isNotEmpty();
    }

    @Test
    void everyTimerFallsBackWhenTheSchedulerRejectsOrOverflowsRepeatedly() {
        HeldScheduler timers = new HeldScheduler(cluster.time);
        Node a = cluster.node("a", Duration.ZERO, b -> b.scheduler(timers).fallbackScheduler(cluster.time)).start();
        cluster.time.runDue();
        Node b = cluster.node("b").start();
        cluster.time.runDue();
        for (int round = 0; round < 4; round++) {
            timers.rejectNext = 5;
            cluster.advance(Cluster.RENEW);
            timers.overflowNext = 5;
            cluster.advance(Cluster.RENEW);
        }
        assertThat(timers.rejected).isEqualTo(40);
        assertThat(a.elector.isLeader()).isTrue();
        assertThat(a.events(ElectionEvent.Lost.class)).isEmpty();
        assertThat(a.events(ElectionEvent.Problem.class))
                .allSatisfy(p -> assertThat(p.kind()).isEqualTo(ElectionEvent.ProblemKind.SCHEDULER_ERROR))
                .anySatisfy(p -> assertThat(p.message()).contains("RejectedExecutionException").contains(Cluster.KEY))
                .anySatisfy(p -> assertThat(p.message()).contains("ArithmeticException"));
        a.elector.close();
        cluster.advanceUntil(b.elector::isLeader, Cluster.POLL.plusSeconds(1));
    }

    // ---- 10. problems are reported once per cause, with human durations

    @Test
    void aClockSkewWarningIsReportedOncePerOffendingLeaderNotAtEveryRenewal() {
        Node fast = cluster.node("fast", TTL.multipliedBy(3), b -> { }).start();
        cluster.time.runDue();
        Node b = cluster.node("b").start();
        cluster.advance(Duration.ofMinutes(2));
        assertThat(fast.elector.isLeader()).isTrue();
        assertThat(b.events(ElectionEvent.Problem.class)).singleElement().satisfies(p -> {
            assertThat(p.kind()).isEqualTo(ElectionEvent.ProblemKind.CLOCK_SKEW);
            assertThat(p.message()).contains("fast").contains("30s").doesNotContain("PT");
        });
    }

    @Test
    void aTimeoutWhoseTextChangesIsReportedOnceUntilTheStoreAnswersAgain() {
        Node a = cluster.node("a").start();
        cluster.time.runDue();
        a.backend.mode = FaultyBackend.Mode.HANG;
        cluster.advance(TTL.minus(MARGIN).minusMillis(1));
        // Renewals at 10 s (timeout 10 s), 22 s (5 s) and so on: the text names a different duration each time.
        List<ElectionEvent.Problem> problems = a.events(ElectionEvent.Problem.class);
        assertThat(problems).singleElement().satisfies(p -> {
            assertThat(p.kind()).isEqualTo(ElectionEvent.ProblemKind.BACKEND_ERROR);
            assertThat(p.message()).contains("renew").contains("10s").doesNotContain("PT");
        });
        a.backend.mode = FaultyBackend.Mode.NORMAL;
        cluster.advance(TTL);
        assertThat(a.elector.isLeader()).isTrue();
        a.backend.mode = FaultyBackend.Mode.HANG;
        cluster.advance(TTL);
        assertThat(a.events(ElectionEvent.Problem.class).stream().filter(p -> p.message().contains("renew")))
                .as("reported again after the store answered: %s", a.events).hasSize(2);
    }

    @Test
    void theBuilderGeneratesOneOwnerForItsSettingsAndItsElector() {
        Elector.Builder builder = Elector.builder(cluster.store, Cluster.KEY);
        String owner = builder.settings().owner();
        assertThat(builder.settings().owner()).isEqualTo(owner);
        assertThat(builder.build().owner()).isEqualTo(owner);
        assertThat(Elector.builder(cluster.store, Cluster.KEY).settings().owner()).isNotEqualTo(owner);
    }
}
