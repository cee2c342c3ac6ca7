package dev.hoplock.core.lock;

import dev.hoplock.core.FaultyBackend;
import dev.hoplock.core.InvalidSettingException;
import dev.hoplock.core.SkewedWallClock;
import dev.hoplock.core.backend.AsyncBackend;
import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.core.backend.StoreCapabilities;
import dev.hoplock.core.backend.StoreNotCapableException;
import dev.hoplock.core.internal.lease.UnknownWrites;
import dev.hoplock.core.lock.AcquireResult;
import dev.hoplock.core.lock.LockEvent;
import dev.hoplock.core.lock.LockHandle;
import dev.hoplock.core.lock.LockLossCause;
import dev.hoplock.core.lock.LockLostException;
import dev.hoplock.core.lock.LockNotAcquiredException;
import dev.hoplock.core.lock.LockNotHeldException;
import dev.hoplock.core.lock.LockScope;
import dev.hoplock.core.lock.ReleaseOutcome;
import dev.hoplock.core.record.LeaseRecord;
import dev.hoplock.core.record.LeaseRecordCodec;
import dev.hoplock.core.time.TimeSource;
import dev.hoplock.core.time.VirtualTime;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Named locks in virtual time: expiry by local observation, clock skew, keep-alive and its loss, tokens, unknowns. */
class NamedLocksTest {

    private static final Duration TTL = Duration.ofSeconds(10);

    private final VirtualTime time = new VirtualTime(Instant.parse("2026-01-01T00:00:00Z"));
    private final InMemoryBackend store = new InMemoryBackend();
    private final List<NamedLocks> opened = new ArrayList<>();

    @AfterEach
    void closeAll() {
        opened.forEach(NamedLocks::close);
        Thread.interrupted();
    }

    private NamedLocks locks(String owner) {
        return locks(owner, time, new FaultyBackend(store));
    }

    private NamedLocks locks(String owner, TimeSource clock, AsyncBackend backend) {
        NamedLocks locks = NamedLocks.builder(backend).owner(owner).timeSource(clock).scheduler(time)
                .eventExecutor(Runnable::run).pollInterval(Duration.ofSeconds(1)).build();
        opened.add(locks);
        return locks;
    }

    private static LockHandle acquired(AcquireResult result) {
        assertThat(result).isInstanceOf(AcquireResult.Acquired.class);
        return ((AcquireResult.Acquired) result).handle();
    }

    private LeaseRecord stored(String name) throws Exception {
        return LeaseRecordCodec.decode(store.read("locks/" + name, TTL).orElseThrow().content());
    }

    @Test
    void aFreeLockIsTakenAndAnotherOwnerIsToldWhoHoldsItUntilWhen() throws Exception {
        NamedLocks a = locks("a");
        NamedLocks b = locks("b");
        LockHandle lock = acquired(a.tryAcquire("jobs/report", TTL));
        assertThat(lock.token()).isEqualTo(1);
        assertThat(lock.isHeld()).isTrue();
        assertThat(lock.isReleased()).isFalse();
        assertThat(lock.timeLeft()).isEqualTo(Duration.ofSeconds(9));
        assertThat(stored("jobs/report").owner()).isEqualTo("a");

        AcquireResult other = b.tryAcquire("jobs/report", TTL);
        assertThat(other).isInstanceOf(AcquireResult.HeldByAnother.class);
        AcquireResult.HeldByAnother held = (AcquireResult.HeldByAnother) other;
        assertThat(held.holder()).isEqualTo("a");
        assertThat(held.expiresAt()).isEqualTo(Instant.parse("2026-01-01T00:00:10Z"));
        assertThat(held.token()).isEqualTo(1);
        assertThat(a.held()).containsExactly(lock);
        assertThat(b.held()).isEmpty();
    }

    @Test
    void theSameOwnerAgainExtendsTheSameAcquisition() throws Exception {
        NamedLocks a = locks("a");
        LockHandle lock = acquired(a.tryAcquire("n", TTL));
        time.advance(Duration.ofSeconds(5));
        AcquireResult again = a.tryAcquire("n", TTL);
        assertThat(again).isEqualTo(new AcquireResult.Acquired(lock, true));
        assertThat(lock.token()).isEqualTo(1);
        assertThat(lock.expiresAt()).isEqualTo(Instant.parse("2026-01-01T00:00:15Z"));
        assertThat(stored("n").expiresAt()).isEqualTo(Instant.parse("2026-01-01T00:00:15Z"));
        time.advance(Duration.ofSeconds(8));
        assertThat(lock.isHeld()).as("extended from the second write's t0").isTrue();
    }

    @Test
    void anotherOwnerTakesOverOnlyAfterSeeingTheRecordUnchangedForATtl() {
        NamedLocks a = locks("a");
        NamedLocks b = locks("b");
        LockHandle first = acquired(a.tryAcquire("n", TTL));
        time.advance(Duration.ofSeconds(4));
        assertThat(b.tryAcquire("n", TTL).acquired()).isFalse(); // first sighting at 4s
        time.advance(Duration.ofSeconds(7)); // 11s: expired by the wall clock, observed for 7s only
        assertThat(first.isHeld()).isFalse();
        assertThat(b.tryAcquire("n", TTL).acquired()).isFalse();
        time.advance(Duration.ofSeconds(3)); // 14s: observed unchanged for 10s
        LockHandle second = acquired(b.tryAcquire("n", TTL));
        assertThat(second.token()).isEqualTo(2);
    }

    /**
     * Review finding on the write on the version last seen (issue 24): a refusal that left that version in place (a
     * conflict that both racing writers lost) keeps its first sighting: the read that follows finds the same version,
     * observed long enough, and the same attempt takes it, instead of observing it for another TTL.
     */
    @Test
    void aRefusalThatLeftTheVersionLastSeenInPlaceKeepsItsFirstSighting() {
        NamedLocks a = locks("a");
        FaultyBackend faulty = new FaultyBackend(store);
        NamedLocks b = locks("b", time, faulty);
        acquired(a.tryAcquire("n", TTL));
        time.advance(Duration.ofSeconds(4));
        assertThat(b.tryAcquire("n", TTL).acquired()).isFalse(); // first sighting at 4s
        time.advance(Duration.ofSeconds(10)); // 14s: observed unchanged for 10s, expired
        faulty.refuseWithoutEffect = 1;
        faulty.calls.clear();
        // The write on the version last seen is refused; the read finds the same version, observed since 4s: taken.
        LockHandle taken = acquired(b.tryAcquire("n", TTL));
        assertThat(taken.token()).isEqualTo(2);
        assertThat(faulty.calls).extracting(FaultyBackend.Call::operation).containsExactly("write", "read", "write");
    }

    @Test
    void aTakerWhoseWallClockRunsFarAheadStillWaitsAFullTtlOfObservation() {
        NamedLocks a = locks("a");
        NamedLocks b = locks("b", time.withWallOffset(Duration.ofHours(1)), new FaultyBackend(store));
        LockHandle first = acquired(a.tryAcquire("n", TTL));
        first.keepAlive(Duration.ofSeconds(3));
        for (int second = 0; second < 60; second++) {
            // By b's clock, a's record expired an hour ago; a renews every 7s, so b never sees it unchanged for 10s.
            assertThat(b.tryAcquire("n", TTL).acquired()).isFalse();
            assertThat(first.isHeld()).isTrue();
            time.advance(Duration.ofSeconds(1));
        }
        first.stopKeepAlive();
        time.advance(Duration.ofSeconds(30));
        assertThat(first.isHeld()).isFalse();
        LockHandle taken = acquired(b.tryAcquire("n", TTL)); // b had seen the last version long enough
        assertThat(taken.token()).isEqualTo(2);
    }

    @Test
    void aFreshTakerDoesNotTrustAnExpiredLookingRecordAndWaitsAFullTtl() {
        NamedLocks a = locks("a");
        acquired(a.tryAcquire("n", TTL)); // a crashes: no keep-alive, no release
        time.advance(Duration.ofSeconds(60));
        NamedLocks b = locks("b");
        assertThat(b.tryAcquire("n", TTL)).isInstanceOf(AcquireResult.HeldByAnother.class);
        time.advance(Duration.ofSeconds(9));
        assertThat(b.tryAcquire("n", TTL).acquired()).isFalse();
        time.advance(Duration.ofSeconds(1));
        assertThat(b.tryAcquire("n", TTL).acquired()).isTrue();
    }

    @Test
    void aHolderWhoseWallClockRunsAheadMakesOthersWaitForItsExpiryToo() {
        NamedLocks a = locks("a", time.withWallOffset(Duration.ofMinutes(5)), new FaultyBackend(store));
        NamedLocks b = locks("b");
        acquired(a.tryAcquire("n", TTL));
        assertThat(b.tryAcquire("n", TTL).acquired()).isFalse();
        time.advance(Duration.ofSeconds(30)); // unchanged for 30s, but expires_at is 5 minutes ahead of b's clock
        assertThat(b.tryAcquire("n", TTL).acquired()).isFalse();
        time.advance(Duration.ofMinutes(5));
        assertThat(b.tryAcquire("n", TTL).acquired()).isTrue();
    }

    /** Rule ids: L3, E4. */
    @Test
    void aLongerTtlHolderIsObservedForTheValidityItsRecordShowed() {
        NamedLocks a = locks("a");
        NamedLocks b = locks("b");
        LockHandle longer = acquired(a.tryAcquire("n", Duration.ofSeconds(60)));
        assertThat(b.tryAcquire("n", TTL).acquired()).isFalse();
        time.advance(Duration.ofSeconds(20)); // b's TTL of observation has passed, a's lock is valid for 34s more
        assertThat(b.tryAcquire("n", TTL).acquired()).isFalse();
        assertThat(longer.isHeld()).isTrue();
        time.advance(Duration.ofSeconds(40));
        assertThat(b.tryAcquire("n", TTL).acquired()).isTrue();
    }

    /** Rule ids: L4, E6. */
    @Test
    void releaseFreesTheLockAtOnceAndTokensKeepRising() throws Exception {
        NamedLocks a = locks("a");
        NamedLocks b = locks("b");
        long last = 0;
        for (int round = 0; round < 10; round++) {
            NamedLocks who = round % 2 == 0 ? a : b;
            LockHandle lock = acquired(who.tryAcquire("n", TTL));
            assertThat(lock.token()).isGreaterThan(last);
            last = lock.token();
            assertThat(lock.release()).isEqualTo(ReleaseOutcome.RELEASED);
            assertThat(lock.isReleased()).isTrue();
            assertThat(stored("n").isReleased()).isTrue();
            assertThat(stored("n").generation()).as("release keeps the generation").isEqualTo(last);
        }
        assertThat(last).isEqualTo(10);
    }

    @Test
    void releaseIsIdempotentAndMustReleaseReportsWhenItHadNoEffect() {
        NamedLocks a = locks("a");
        LockHandle lock = acquired(a.tryAcquire("n", TTL));
        lock.mustRelease();
        assertThat(lock.release()).isEqualTo(ReleaseOutcome.ALREADY_RELEASED);
        assertThatThrownBy(lock::mustRelease).isInstanceOf(LockNotHeldException.class)
                .hasMessageContaining("released before");
    }

    @Test
    void releaseNeverRemovesAnotherOwnersLock() throws Exception {
        NamedLocks a = locks("a");
        NamedLocks b = locks("b");
        LockHandle stale = acquired(a.tryAcquire("n", TTL));
        assertThat(b.tryAcquire("n", TTL).acquired()).isFalse();
        time.advance(Duration.ofSeconds(10));
        LockHandle current = acquired(b.tryAcquire("n", TTL));
        assertThat(stale.release()).isEqualTo(ReleaseOutcome.NOT_HELD);
        assertThat(stored("n").owner()).isEqualTo("b");
        assertThat(current.isHeld()).isTrue();
        assertThat(acquired(a.tryAcquire("m", TTL)).release()).isEqualTo(ReleaseOutcome.RELEASED);
    }

    @Test
    void anExpiredButStillCurrentRecordOfOursIsReleasedAndReportedNotHeld() throws Exception {
        NamedLocks a = locks("a");
        LockHandle lock = acquired(a.tryAcquire("n", TTL));
        time.advance(Duration.ofSeconds(9));
        assertThat(lock.isHeld()).isFalse();
        assertThatThrownBy(lock::mustRelease).isInstanceOf(LockNotHeldException.class)
                .extracting(e -> ((LockNotHeldException) e).outcome()).isEqualTo(ReleaseOutcome.NOT_HELD);
        assertThat(stored("n").isReleased()).as("freed for others all the same").isTrue();
    }

    @Test
    void keepAliveExtendsUntilStoppedAndIsRefusedWithAClearErrorWhenItCannotWork() {
        NamedLocks a = locks("a");
        LockHandle lock = acquired(a.tryAcquire("n", TTL));
        assertThatThrownBy(() -> lock.keepAlive(TTL)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must be below its TTL (10s)");
        assertThatThrownBy(() -> lock.keepAlive(Duration.ofMillis(500))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("above its safety margin (1s)");
        lock.keepAlive(Duration.ofSeconds(3));
        lock.keepAlive(Duration.ofSeconds(3));
        time.advance(Duration.ofMinutes(5));
        assertThat(lock.isHeld()).isTrue();
        assertThat(lock.token()).isEqualTo(1);
        lock.release();
        assertThatThrownBy(() -> lock.keepAlive(Duration.ofSeconds(3))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("acquire it first");
    }

    @Test
    void extendingWithAShorterTtlThanTheKeepAliveMarginKeepsRenewingSanely() {
        FaultyBackend faulty = new FaultyBackend(store);
        NamedLocks a = locks("a", time, faulty);
        LockHandle lock = acquired(a.tryAcquire("n", TTL));
        lock.keepAlive(Duration.ofSeconds(3));
        assertThat(a.tryAcquire("n", Duration.ofSeconds(2))).isEqualTo(new AcquireResult.Acquired(lock, true));
        faulty.calls.clear();
        time.advance(Duration.ofSeconds(60));
        assertThat(lock.isHeld()).isTrue();
        // 2s TTL, margin (0.2s + 2s) / 2 = 1.1s: a renewal every 0.9s, not a busy loop.
        assertThat(faulty.calls.stream().filter(c -> c.operation().equals("write")).count()).isBetween(60L, 70L);
    }

    /**
     * Issue 19, defect 8 (elector rules 1 and 2, E1/E2: validity anchored before the write, self-fencing): an extension
     * with a shorter TTL ends the acquisition where that write's validity ends, not at the later deadline of the
     * longer write before it. With the later deadline kept, a backward wall step left the holder counting itself
     * holding while a taker using the short TTL held the lock.
     * <p>Rule ids: L1, E1.
     */
    @Test
    void rule1_anExtensionWithAShorterTtlEndsAtItsOwnDeadlineEvenAfterABackwardWallStep() {
        SkewedWallClock clock = new SkewedWallClock(time);
        NamedLocks a = locks("a", clock, new FaultyBackend(store));
        NamedLocks b = locks("b");
        LockHandle lock = acquired(a.tryAcquire("n", Duration.ofSeconds(60)));
        time.advance(Duration.ofSeconds(1));
        assertThat(a.tryAcquire("n", Duration.ofSeconds(2))).isEqualTo(new AcquireResult.Acquired(lock, true));
        assertThat(lock.timeLeft()).as("t0 (1s) + 2s - 0.2s, not the first write's 54s").isEqualTo(
                Duration.ofMillis(1_800));
        clock.step(Duration.ofMinutes(-2)); // a's wall clock steps back: only the monotonic deadline bounds a now
        assertThat(b.tryAcquire("n", Duration.ofSeconds(2)).acquired()).isFalse(); // b's first sighting, at 1s
        time.advance(Duration.ofMillis(1_799));
        assertThat(lock.isHeld()).isTrue();
        time.advance(Duration.ofMillis(1));
        assertThat(lock.isHeld()).as("a's deadline after the 2s extension: 2.8s").isFalse();
        time.advance(Duration.ofMillis(200)); // 3s: the record expired and b has seen it unchanged for 2s
        LockHandle taken = acquired(b.tryAcquire("n", Duration.ofSeconds(2)));
        assertThat(taken.token()).isEqualTo(2);
        assertThat(lock.isHeld()).as("two holders: a still counts itself holding").isFalse();
    }

    /** The planted bug of defect 8 ({@link LockSimulationSeams#keepLaterDeadline}) gives two holders in that scenario. */
    @Test
    void rule1_plantedDefect8_keepingTheLaterDeadlineGivesTwoHoldersAfterABackwardWallStep() {
        SkewedWallClock clock = new SkewedWallClock(time);
        NamedLocks a = LockSimulationSeams.keepLaterDeadline(NamedLocks.builder(new FaultyBackend(store)).owner("a")
                .timeSource(clock).scheduler(time).eventExecutor(Runnable::run).pollInterval(Duration.ofSeconds(1)))
                .build();
        opened.add(a);
        NamedLocks b = locks("b");
        LockHandle lock = acquired(a.tryAcquire("n", Duration.ofSeconds(60)));
        time.advance(Duration.ofSeconds(1));
        acquired(a.tryAcquire("n", Duration.ofSeconds(2)));
        clock.step(Duration.ofMinutes(-2));
        assertThat(b.tryAcquire("n", Duration.ofSeconds(2)).acquired()).isFalse();
        time.advance(Duration.ofSeconds(2));
        LockHandle taken = acquired(b.tryAcquire("n", Duration.ofSeconds(2)));
        assertThat(taken.isHeld()).isTrue();
        assertThat(lock.isHeld()).as("the planted bug: a still counts itself holding").isTrue();
    }

    /**
     * Issue 19, defect 8, the write in flight (rule 1, E1: "whether or not a renewal is in flight"): a shorter-TTL
     * extension whose answer is lost may have landed, so from the moment it is sent the acquisition ends no later than
     * that write's validity would, with no clock step at all.
     * <p>Rule ids: L1, E1, E5.
     */
    @Test
    void rule1_aShorterTtlExtensionWithoutAnAnswerBoundsTheAcquisitionFromTheMomentItIsSent() throws Exception {
        FaultyBackend faulty = new FaultyBackend(store);
        NamedLocks a = locks("a", time, faulty);
        NamedLocks b = locks("b");
        LockHandle lock = acquired(a.tryAcquire("n", Duration.ofSeconds(60)));
        time.advance(Duration.ofSeconds(1));
        faulty.mode = FaultyBackend.Mode.LOSE_ANSWER;
        assertThat(a.tryAcquire("n", Duration.ofSeconds(2))).isInstanceOf(AcquireResult.Unavailable.class);
        assertThat(stored("n").expiresAt()).as("the 2s extension did land").isEqualTo(
                Instant.parse("2026-01-01T00:00:03Z"));
        assertThat(lock.timeLeft()).as("bounded by the write in flight: 1s + 2s - 0.2s").isEqualTo(
                Duration.ofMillis(1_800));
        assertThat(b.tryAcquire("n", Duration.ofSeconds(2)).acquired()).isFalse(); // b's first sighting, at 1s
        time.advance(Duration.ofMillis(1_800));
        assertThat(lock.isHeld()).isFalse();
        time.advance(Duration.ofMillis(200));
        acquired(b.tryAcquire("n", Duration.ofSeconds(2)));
        assertThat(lock.isHeld()).as("two holders: a still counts itself holding").isFalse();
    }

    /**
     * Issue 19, the adoption-TTL finding (rule 5 with rule 1, E1: an adopted write's validity counts from its own
     * {@code t0} for its own TTL): a refused 60 s extension adopts the 2 s write the store still holds, after more later
     * writes than were remembered by nonce. The adopted acquisition ends where the 2 s write's validity ends; counting
     * the 60 s asked for left the holder holding, after a backward wall step, while a 2 s taker held the lock.
     * <p>Rule ids: L2, E5.
     */
    @Test
    void rule5_anAdoptionCountsTheTtlOfTheWriteAdoptedNotTheTtlAskedForEvenAfterManyLaterWrites() throws Exception {
        SkewedWallClock clock = new SkewedWallClock(time);
        FaultyBackend faulty = new FaultyBackend(store);
        NamedLocks a = locks("a", clock, faulty);
        NamedLocks b = locks("b");
        LockHandle lock = adoptAShortWriteThroughARefusedLongExtension(a, b, clock, faulty);
        assertThat(lock.timeLeft()).as("the adopted write's t0 (0) + 2 s - 0.2 s, not + 60 s - 6 s").isEqualTo(
                Duration.ofMillis(1_800));
        time.advance(Duration.ofMillis(1_799));
        assertThat(lock.isHeld()).isTrue();
        time.advance(Duration.ofMillis(1));
        assertThat(lock.isHeld()).as("the 2 s write's validity has ended").isFalse();
        time.advance(Duration.ofMillis(200)); // 2 s: the record expired and b has seen it unchanged for 2 s
        LockHandle taken = acquired(b.tryAcquire("n", Duration.ofSeconds(2)));
        assertThat(taken.token()).isEqualTo(2);
        assertThat(lock.isHeld()).as("two holders: a still counts itself holding").isFalse();
    }

    /**
     * The planted bug of the adoption-TTL finding ({@link LockSimulationSeams#adoptWithTheTtlAskedFor}: what the
     * engine did once it had forgotten the adopted write's TTL) gives two holders in that scenario.
     */
    @Test
    void rule5_plantedAdoptionTtl_countingTheTtlAskedForGivesTwoHoldersAfterABackwardWallStep() throws Exception {
        SkewedWallClock clock = new SkewedWallClock(time);
        FaultyBackend faulty = new FaultyBackend(store);
        NamedLocks a = LockSimulationSeams.adoptWithTheTtlAskedFor(NamedLocks.builder(faulty).owner("a")
                .timeSource(clock).scheduler(time).eventExecutor(Runnable::run).pollInterval(Duration.ofSeconds(1)))
                .build();
        opened.add(a);
        NamedLocks b = locks("b");
        LockHandle lock = adoptAShortWriteThroughARefusedLongExtension(a, b, clock, faulty);
        time.advance(Duration.ofSeconds(2));
        LockHandle taken = acquired(b.tryAcquire("n", Duration.ofSeconds(2)));
        assertThat(taken.isHeld()).isTrue();
        assertThat(lock.isHeld()).as("the planted bug: a still counts itself holding").isTrue();
    }

    /**
     * The adoption-TTL scenario up to the adoption: {@code a} takes "n" for 2 s at t0 = 0 and {@code b} sees that
     * version; {@code 3 x MAX_REMEMBERED} renewals of {@code a} fail before reaching the store (writes of unknown
     * outcome, each with a nonce of its own); {@code a}'s wall clock steps back 2 minutes (only its monotonic deadline
     * bounds it now); a 60 s extension is refused without effect (409) and its read adopts the 2 s write, still current.
     */
    private LockHandle adoptAShortWriteThroughARefusedLongExtension(NamedLocks a, NamedLocks b, SkewedWallClock clock,
                                                                    FaultyBackend faulty) throws Exception {
        LockHandle lock = acquired(a.tryAcquire("n", Duration.ofSeconds(2)));
        assertThat(b.tryAcquire("n", Duration.ofSeconds(2)).acquired()).isFalse(); // b's first sighting, at 0
        faulty.mode = FaultyBackend.Mode.FAIL;
        for (int i = 0; i < 3 * UnknownWrites.MAX_REMEMBERED; i++) {
            assertThat(a.tryAcquire("n", Duration.ofSeconds(2))).isInstanceOf(AcquireResult.Unavailable.class);
        }
        clock.step(Duration.ofMinutes(-2));
        faulty.mode = FaultyBackend.Mode.NORMAL;
        faulty.refuseWithoutEffect = 1;
        assertThat(a.tryAcquire("n", Duration.ofSeconds(60))).as("the refusal's read adopts the 2 s write")
                .isEqualTo(new AcquireResult.Acquired(lock, true));
        assertThat(stored("n").expiresAt()).isEqualTo(Instant.parse("2026-01-01T00:00:02Z"));
        return lock;
    }

    /** Rule ids: L5, E2. */
    @Test
    void aFailedKeepAliveLosesTheLockAtItsDeadlineTellsListenersAndInterruptsTheScope() {
        FaultyBackend faulty = new FaultyBackend(store);
        NamedLocks a = locks("a", time, faulty);
        List<LockEvent> events = new CopyOnWriteArrayList<>();
        a.addListener(events::add);
        LockHandle lock = acquired(a.tryAcquire("n", TTL));
        List<LockEvent.Lost> told = new ArrayList<>();
        lock.onLost(told::add);
        lock.keepAlive(Duration.ofSeconds(3));
        LockScope scope = lock.enterScope(true);
        faulty.mode = FaultyBackend.Mode.FAIL;
        time.advance(Duration.ofMillis(8_999));
        assertThat(lock.isHeld()).isTrue();
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
        time.advance(Duration.ofMillis(1));
        assertThat(lock.isHeld()).isFalse();
        assertThat(scope.wasLost()).isTrue();
        assertThat(Thread.interrupted()).as("the scope's thread was interrupted").isTrue();
        assertThat(told).singleElement().extracting(LockEvent.Lost::cause).isEqualTo(LockLossCause.KEEP_ALIVE_FAILED);
        assertThat(events).filteredOn(LockEvent.Lost.class::isInstance).hasSize(1);
        assertThat(faulty.calls.stream().filter(c -> c.operation().equals("write")).count())
                .as("the renewal was retried").isGreaterThan(1);
        scope.close();
        List<LockEvent.Lost> late = new ArrayList<>();
        lock.onLost(late::add);
        assertThat(late).hasSize(1);
    }

    @Test
    void aRenewalRefusedBecauseSomeoneChangedTheRecordLosesTheLockAtOnce() {
        NamedLocks a = locks("a");
        LockHandle lock = acquired(a.tryAcquire("n", TTL));
        lock.keepAlive(Duration.ofSeconds(3));
        List<LockEvent.Lost> told = new ArrayList<>();
        lock.onLost(told::add);
        store.put("locks/n", LeaseRecordCodec.encode(new LeaseRecord(5, Instant.parse("2030-01-01T00:00:00Z"), "x",
                "outside")));
        time.advance(Duration.ofSeconds(7));
        assertThat(lock.isHeld()).isFalse();
        assertThat(told).singleElement().extracting(LockEvent.Lost::cause).isEqualTo(LockLossCause.TAKEN_OVER);
    }

    @Test
    void aWriteWithoutAnAnswerIsNeverReportedAsHeldAndIsAdoptedOnlyWhenProvablyOurs() throws Exception {
        FaultyBackend faulty = new FaultyBackend(store);
        NamedLocks a = locks("a", time, faulty);
        faulty.mode = FaultyBackend.Mode.LOSE_ANSWER;
        AcquireResult lost = a.tryAcquire("n", TTL);
        assertThat(lost).isInstanceOf(AcquireResult.Unavailable.class);
        assertThat(stored("n").owner()).as("the write did happen").isEqualTo("a");
        assertThat(a.held()).isEmpty();
        faulty.mode = FaultyBackend.Mode.NORMAL;
        time.advance(Duration.ofSeconds(2));
        LockHandle adopted = acquired(a.tryAcquire("n", TTL));
        assertThat(adopted.token()).isEqualTo(1);
        assertThat(adopted.timeLeft()).as("validity counts from the lost write's t0").isEqualTo(Duration.ofSeconds(7));
    }

    @Test
    void anotherProcessWithTheSameOwnerIdIsNotTakenForUs() {
        NamedLocks first = locks("same");
        NamedLocks second = locks("same");
        acquired(first.tryAcquire("n", TTL));
        assertThat(second.tryAcquire("n", TTL)).isInstanceOf(AcquireResult.HeldByAnother.class);
    }

    @Test
    void blockingAcquireWaitsWithinItsLimit() {
        NamedLocks a = locks("a");
        NamedLocks b = locks("b");
        LockHandle lock = acquired(a.tryAcquire("n", TTL));
        CompletableFuture<AcquireResult> tooShort = b.acquireAsync("n", TTL, Duration.ofSeconds(3));
        time.advance(Duration.ofSeconds(4));
        assertThat(tooShort).isCompletedWithValueMatching(r -> r instanceof AcquireResult.HeldByAnother);
        CompletableFuture<AcquireResult> waiting = b.acquireAsync("n", TTL, Duration.ofSeconds(30));
        time.advance(Duration.ofSeconds(2));
        assertThat(waiting).isNotDone();
        lock.release();
        time.advance(Duration.ofSeconds(1));
        assertThat(waiting).isCompletedWithValueMatching(AcquireResult::acquired);
    }

    @Test
    void anInterruptedBlockingAcquireLeavesNoLockHeld() throws Exception {
        NamedLocks a = locks("a");
        NamedLocks b = locks("b");
        LockHandle lock = acquired(a.tryAcquire("n", TTL));
        java.util.concurrent.atomic.AtomicReference<Throwable> thrown = new java.util.concurrent.atomic.AtomicReference<>();
        java.util.concurrent.atomic.AtomicBoolean flagSet = new java.util.concurrent.atomic.AtomicBoolean();
        Thread waiter = new Thread(() -> {
            try {
                b.acquire("n", TTL, Duration.ofMinutes(1));
            } catch (RuntimeException e) {
                thrown.set(e);
                flagSet.set(Thread.currentThread().isInterrupted());
            }
        });
        waiter.start();
        org.awaitility.Awaitility.await().until(() -> waiter.getState() == Thread.State.WAITING);
        waiter.interrupt();
        waiter.join(10_000);
        assertThat(thrown.get()).isInstanceOf(dev.hoplock.core.lock.LockInterruptedException.class)
                .hasMessageContaining("waiting for the lock 'n'");
        assertThat(flagSet).isTrue();
        lock.release();
        time.advance(Duration.ofSeconds(2)); // the abandoned attempt takes the released lock, then releases it
        assertThat(b.held()).isEmpty();
        assertThat(stored("n").isReleased()).isTrue();
        assertThat(stored("n").generation()).as("b did take it, and released it").isEqualTo(2);
    }

    @Test
    void withLockReleasesInAllCasesAndRefusesWhenHeldElsewhere() throws Exception {
        NamedLocks a = locks("a");
        NamedLocks b = locks("b");
        assertThatThrownBy(() -> a.withLock("n", TTL, lock -> {
            throw new IllegalStateException("task failed");
        })).hasMessage("task failed");
        assertThat(stored("n").isReleased()).isTrue();
        long token = a.withLock("n", TTL, LockHandle::token);
        assertThat(token).isEqualTo(2);
        assertThat(stored("n").isReleased()).isTrue();
        acquired(b.tryAcquire("n", TTL));
        assertThatThrownBy(() -> a.withLock("n", TTL, lock -> "ran")).isInstanceOf(LockNotAcquiredException.class)
                .hasMessageContaining("held by 'b'");
        a.withLock("other", TTL, lock -> assertThatThrownBy(() -> a.withLock("other", TTL, inner -> "nested"))
                .isInstanceOf(LockNotAcquiredException.class).hasMessageContaining("already held by this instance"));
    }

    /**
     * Issue 19: a lock lost while {@code withLock}'s task runs (elector rule 2, E2: the scope is told and its thread
     * interrupted) reaches the caller as a {@link LockLostException} naming the loss, with the task's own exception
     * (here the interruption) as its cause, not as a bare InterruptedException; the interrupt it delivered does not
     * leak out.
     */
    @Test
    void rule2_aLockLostInsideWithLockReachesTheCallerAsLockLostExceptionWithTheInterruptionAsCause() {
        FaultyBackend faulty = new FaultyBackend(store);
        NamedLocks a = locks("a", time, faulty);
        Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(() -> a.withLock("n", TTL, lock -> {
            faulty.mode = FaultyBackend.Mode.FAIL;
            time.advance(Duration.ofSeconds(9)); // the keep-alive fails; at the deadline the scope interrupts us
            new java.util.concurrent.CountDownLatch(1).await(); // work blocked in an interruptible call
            return "finished";
        }));
        assertThat(thrown).isInstanceOf(LockLostException.class)
                .hasMessageContaining("the lock 'n' (token 1) was lost while the task ran: KEEP_ALIVE_FAILED")
                .hasCauseInstanceOf(InterruptedException.class);
        assertThat(((LockLostException) thrown).loss()).isNotNull()
                .extracting(LockEvent.Lost::cause).isEqualTo(LockLossCause.KEEP_ALIVE_FAILED);
        assertThat(Thread.currentThread().isInterrupted()).as("the loss's interrupt does not leak").isFalse();
        // A task that fails while the lock is still held fails with its own exception, as before.
        faulty.mode = FaultyBackend.Mode.NORMAL;
        time.advance(Duration.ofSeconds(20));
        assertThatThrownBy(() -> a.withLock("n", TTL, lock -> {
            throw new IllegalStateException("task failed");
        })).isExactlyInstanceOf(IllegalStateException.class);
    }

    @Test
    void manyNamesShareOneScheduler() {
        NamedLocks a = locks("a");
        List<LockHandle> handles = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            LockHandle lock = acquired(a.tryAcquire("n" + i, TTL));
            lock.keepAlive(Duration.ofSeconds(3));
            handles.add(lock);
        }
        time.advance(Duration.ofMinutes(2));
        assertThat(handles).allMatch(LockHandle::isHeld);
        assertThat(a.held()).hasSize(500);
        assertThat(time.pendingTasks()).as("a renewal and a deadline timer per name").isLessThanOrEqualTo(1000);
    }

    /** Rule ids: E0. */
    @Test
    void aStoreThatDoesNotHonourConditionalWritesIsNeverWrittenTo() {
        FaultyBackend calls = new FaultyBackend(store);
        AsyncBackend faulty = new AsyncBackend() {
            @Override
            public java.util.concurrent.CompletionStage<java.util.Optional<dev.hoplock.core.backend.StoredObject>> read(
                    String key, Duration timeout) {
                return calls.read(key, timeout);
            }

            @Override
            public java.util.concurrent.CompletionStage<dev.hoplock.core.backend.WriteResult> write(String key,
                    dev.hoplock.core.backend.Handle expected, byte[] content, Duration timeout) {
                return calls.write(key, expected, content, timeout);
            }

            @Override
            public java.util.concurrent.CompletionStage<dev.hoplock.core.backend.DeleteResult> delete(String key,
                    dev.hoplock.core.backend.Handle expected, Duration timeout) {
                return calls.delete(key, expected, timeout);
            }

            @Override
            public java.util.concurrent.CompletionStage<StoreCapabilities> verify() {
                return CompletableFuture.completedFuture(StoreCapabilities.builder("fake-s3")
                        .set(StoreCapabilities.Capability.CONDITIONAL_CREATE, StoreCapabilities.Support.NOT_SUPPORTED,
                                "If-None-Match ignored").build());
            }

            @Override
            public String describe() {
                return "fake-s3";
            }
        };
        NamedLocks a = locks("a", time, faulty);
        AcquireResult answer = a.tryAcquire("n", TTL);
        assertThat(answer).isInstanceOfSatisfying(AcquireResult.Unavailable.class, unavailable -> assertThat(
                unavailable.cause()).isInstanceOf(StoreNotCapableException.class)
                .hasMessageContaining("conditional create"));
        assertThat(a.tryAcquire("n", TTL)).isInstanceOf(AcquireResult.Unavailable.class);
        assertThat(calls.calls).as("nothing was read or written").isEmpty();
    }

    /**
     * E0 for named locks, through the one gate the elector uses ({@link VerificationGate}): a store that throws
     * {@code CONDITIONAL_WRITES_NOT_SUPPORTED} (a 501 to a conditional request) is refused for good, asked once and
     * never read or written, as {@code StoreVerificationTest} shows for the elector.
     */
    @Test
    void e0_aStoreThatThrowsConditionalWritesNotSupportedIsAskedOnceAndNeverWrittenTo() {
        ScriptedVerification backend = new ScriptedVerification(new FaultyBackend(store));
        backend.answers.add(() -> CompletableFuture.failedFuture(new dev.hoplock.core.backend.BackendException(
                dev.hoplock.core.backend.BackendException.Kind.CONDITIONAL_WRITES_NOT_SUPPORTED,
                "501 NotImplemented to If-None-Match")));
        NamedLocks a = locks("a", time, backend);

        for (int i = 0; i < 3; i++) {
            assertThat(a.tryAcquire("n", TTL)).isInstanceOfSatisfying(AcquireResult.Unavailable.class,
                    unavailable -> assertThat(unavailable.cause()).hasMessageContaining("501 NotImplemented"));
            time.advance(TTL);
        }

        assertThat(backend.verifications).as("a refusal is final").isEqualTo(1);
        assertThat(backend.lease.calls).as("nothing was read or written").isEmpty();
    }

    /** E0 for named locks: a store that could not be asked (unreachable) is asked again at the next attempt. */
    @Test
    void e0_anUnreachableStoreIsAskedAgainAtTheNextAttemptAndLockedOnceItAnswers() {
        ScriptedVerification backend = new ScriptedVerification(new FaultyBackend(store));
        backend.answers.add(() -> CompletableFuture.failedFuture(new dev.hoplock.core.backend.BackendException(
                dev.hoplock.core.backend.BackendException.Kind.TRANSIENT, "connection refused")));
        backend.answers.add(() -> CompletableFuture.completedFuture(StoreCapabilities.builder("scripted").build()));
        NamedLocks a = locks("a", time, backend);

        assertThat(a.tryAcquire("n", TTL)).isInstanceOfSatisfying(AcquireResult.Unavailable.class,
                unavailable -> assertThat(unavailable.cause()).hasMessageContaining("connection refused"));
        assertThat(backend.lease.calls).as("nothing was read or written before the store passed").isEmpty();
        acquired(a.tryAcquire("n", TTL));

        assertThat(backend.verifications).isEqualTo(2);
    }

    /** A store behind a {@link FaultyBackend} whose verification answers a test scripts, one per call (the last repeats). */
    private static final class ScriptedVerification implements AsyncBackend {
        final java.util.Deque<java.util.function.Supplier<java.util.concurrent.CompletionStage<StoreCapabilities>>>
                answers = new java.util.ArrayDeque<>();
        final FaultyBackend lease;
        int verifications;

        ScriptedVerification(FaultyBackend lease) {
            this.lease = lease;
        }

        @Override
        public java.util.concurrent.CompletionStage<StoreCapabilities> verify() {
            verifications++;
            return (answers.size() > 1 ? answers.removeFirst() : answers.getFirst()).get();
        }

        @Override
        public java.util.concurrent.CompletionStage<java.util.Optional<dev.hoplock.core.backend.StoredObject>> read(
                String key, Duration timeout) {
            return lease.read(key, timeout);
        }

        @Override
        public java.util.concurrent.CompletionStage<dev.hoplock.core.backend.WriteResult> write(String key,
                dev.hoplock.core.backend.Handle expected, byte[] content, Duration timeout) {
            return lease.write(key, expected, content, timeout);
        }

        @Override
        public java.util.concurrent.CompletionStage<dev.hoplock.core.backend.DeleteResult> delete(String key,
                dev.hoplock.core.backend.Handle expected, Duration timeout) {
            return lease.delete(key, expected, timeout);
        }

        @Override
        public String describe() {
            return "scripted(memory)";
        }
    }

    /**
     * Issue 19: a TTL whose usable validity (TTL minus the safety margin) cannot outlast a write (1 ms and below never
     * succeeded on OpenSearch) is refused at the call, naming the setting, the value, the minimum and the fix.
     * <p>Rule ids: L6.
     */
    @Test
    void aTtlThatCannotOutlastAWriteIsRefusedNamingTheMinimum() {
        NamedLocks a = locks("a"); // request timeout 5 s, safety margin 10 %: a write gets at most 50 ms to land
        assertThatThrownBy(() -> a.tryAcquire("n", Duration.ofMillis(1))).isInstanceOfSatisfying(
                InvalidSettingException.class, e -> {
                    assertThat(e.setting()).isEqualTo("ttl");
                    assertThat(e.rejectedValue()).isEqualTo(Duration.ofMillis(1));
                    assertThat(e.limit()).isEqualTo(Duration.ofMillis(56));
                    assertThat(e.getMessage()).contains("ttl must be at least 56ms", "was 1ms",
                            "the safety margin (10%)", "choose a longer ttl");
                });
        assertThatThrownBy(() -> a.acquireAsync("n", Duration.ofMillis(55), Duration.ZERO))
                .isInstanceOf(InvalidSettingException.class);
        assertThatThrownBy(() -> a.withLock("n", Duration.ofNanos(1), lock -> "ran"))
                .isInstanceOf(InvalidSettingException.class);
        assertThat(a.minimumTtl()).isEqualTo(Duration.ofMillis(56));
        assertThat(a.tryAcquire("n", Duration.ofMillis(56)).acquired()).isTrue();
        NamedLocks quick = NamedLocks.builder(store).owner("q").timeSource(time).scheduler(time)
                .requestTimeout(Duration.ofMillis(9)).build();
        opened.add(quick);
        assertThat(quick.minimumTtl()).as("the request timeout, when shorter, plus the margin").isEqualTo(
                Duration.ofMillis(10));
    }

    @Test
    void badInputIsRefusedNamingTheFix() {
        NamedLocks a = locks("a");
        assertThatThrownBy(() -> a.tryAcquire("bad name", TTL)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("invalid lock name 'bad name'");
        assertThatThrownBy(() -> a.tryAcquire("n", Duration.ZERO)).isInstanceOf(InvalidSettingException.class)
                .hasMessageContaining("above 0");
        assertThatThrownBy(() -> NamedLocks.builder(store).keyPrefix("x")).hasMessageContaining("must end with '/'");
        assertThat(NamedLocks.builder(store).build()).satisfies(l -> {
            assertThat(l.owner()).isEqualTo(NamedLocks.processOwner());
            l.close();
        });
    }
}
