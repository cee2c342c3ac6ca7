package dev.hoplock.core.lock;

import dev.hoplock.core.InvalidSettingException;
import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.core.record.LeaseRecord;
import dev.hoplock.core.record.LeaseRecordCodec;
import dev.hoplock.core.time.VirtualTime;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Fairness of named locks (issue 23), measured in virtual time: three instances over one store call one name at the
 * same cadence with different phases, as three copies of a scheduled job do. The default mode promises no fairness,
 * and these counts show what that means; the fair mode (L7, {@link LockTurnRule}) takes turns, and never makes two
 * holders. The counts are quoted in docs/named-locks.md, "Fairness"
 * ({@code mvn -o test -pl hoplock-core -Dtest=LockTurnsTest}).
 */
class LockTurnsTest {

    private static final String NAME = "report-daily";
    private static final Duration PERIOD = Duration.ofMillis(200);
    /** Where each instance's calls fall within the period: three processes started at different moments. */
    private static final Duration[] PHASES = {Duration.ZERO, Duration.ofMillis(40), Duration.ofMillis(110)};
    private static final Duration WINDOW = Duration.ofSeconds(20);
    private static final Duration TURN = Duration.ofMillis(400);
    /**
     * Two instances with the window for three: each yields in the period after its own run, so every third period
     * nobody runs; an untaken yield on another instance's record is no sign of being alone (no quiet: it was 90 and 5).
     */
    /** a: about 48 runs alone in the first 10 s, then turns with b, which first ran 2.8 s after its first call. */
    private static final int NEWCOMER_A = 73;
    private static final int NEWCOMER_B = 12;
    private static final int TWO_A = 34;
    private static final int TWO_B = 33;

    private final VirtualTime time = new VirtualTime(Instant.parse("2026-01-01T00:00:00Z"));
    private final InMemoryBackend store = new InMemoryBackend();
    private final List<NamedLocks> opened = new ArrayList<>();

    @AfterEach
    void closeAll() {
        opened.forEach(NamedLocks::close);
    }

    private NamedLocks locks(String owner) {
        return locks(owner, NamedLocks.builder(store));
    }

    private NamedLocks locks(String owner, NamedLocks.Builder builder) {
        NamedLocks locks = builder.owner(owner).timeSource(time).scheduler(time).ioExecutor(Runnable::run)
                .eventExecutor(Runnable::run).build();
        opened.add(locks);
        return locks;
    }

    /**
     * How each instance calls: {@code ttl} asked for, {@code runsFor} of work under the lock, then a release (or,
     * {@code release} false, the record left to expire, as a minimum hold does), with the turn window {@code turn}.
     */
    private record Job(Duration ttl, Duration runsFor, boolean release, Duration turn) {
    }

    /** What a run of the fleet gave: attempts and wins per instance, and the tokens in the order they were won. */
    private record Counts(int[] tries, int[] wins, List<Long> tokens, long[] firstWinNanos) {
        @Override
        public String toString() {
            return "tries " + Arrays.toString(tries) + ", wins " + Arrays.toString(wins);
        }
    }

    /**
     * Runs {@code instances} calling {@link #NAME} every {@link #PERIOD} at their {@link #PHASES} for {@link #WINDOW},
     * each call like a scheduled job's (a firing while the same instance still runs is skipped), and checks at every
     * start of work that no other instance is working or holds the lock.
     */
    private Counts run(List<NamedLocks> instances, Job job) {
        return run(instances, job, new Duration[instances.size()]);
    }

    /** As {@link #run(List, Job)}, instance {@code i} making its first call {@code joins[i]} late (null: at once). */
    private Counts run(List<NamedLocks> instances, Job job, Duration[] joins) {
        int n = instances.size();
        int[] tries = new int[n];
        int[] wins = new int[n];
        boolean[] working = new boolean[n];
        List<Long> tokens = new ArrayList<>();
        long[] firstWin = new long[n];
        Arrays.fill(firstWin, -1);
        long end = time.nanoTime() + WINDOW.toNanos();
        for (int i = 0; i < n; i++) {
            int me = i;
            Runnable[] call = new Runnable[1];
            call[0] = () -> {
                if (time.nanoTime() >= end) {
                    return;
                }
                time.schedule(call[0], PERIOD);
                if (working[me]) {
                    return;
                }
                tries[me]++;
                AcquireResult answer = instances.get(me).tryAcquire(NAME, job.ttl(), job.turn());
                if (!(answer instanceof AcquireResult.Acquired acquired) || acquired.extended()) {
                    return;
                }
                LockHandle lock = acquired.handle();
                for (int other = 0; other < n; other++) {
                    assertThat(working[other]).as("instance %d works while %d starts", other, me).isFalse();
                    if (other != me) {
                        assertThat(instances.get(other).held()).as("instance %d holds the lock", other).isEmpty();
                    }
                }
                if (!tokens.isEmpty()) {
                    assertThat(lock.token()).as("tokens rise").isGreaterThan(tokens.get(tokens.size() - 1));
                }
                tokens.add(lock.token());
                if (wins[me]++ == 0) {
                    firstWin[me] = time.nanoTime();
                }
                working[me] = true;
                time.advance(job.runsFor());
                working[me] = false;
                if (job.release()) {
                    lock.release();
                }
            };
            time.schedule(call[0], joins[i] == null ? PHASES[i] : PHASES[i].plus(joins[i]));
        }
        time.advance(WINDOW.plus(PERIOD));
        return new Counts(tries, wins, tokens, firstWin);
    }

    private List<NamedLocks> three() {
        return List.of(locks("a"), locks("b"), locks("c"));
    }

    @Test
    void theDefaultModeLetsTheFirstCallerOfEachPeriodWinEveryTime() {
        // The work (150 ms) outlasts the gaps between the phases: whoever asks first after a release wins.
        Counts counts = run(three(), new Job(Duration.ofSeconds(10), Duration.ofMillis(150), true, Duration.ZERO));
        System.out.println("default mode, released after 150 ms of work: " + counts);
        assertThat(counts.tries()).containsExactly(100, 100, 100);
        assertThat(counts.wins()).containsExactly(100, 0, 0);
    }

    @Test
    void theDefaultModeLetsAnInstanceThatLeftItsRecordToExpireTakeItBackAtOnce() {
        // Work of 30 ms under a 150 ms TTL, never released (as a minimum hold): the others must observe the record
        // for 150 ms before taking it over, but its owner takes its own ended record back at its next call at once.
        Counts counts = run(three(), new Job(Duration.ofMillis(150), Duration.ofMillis(30), false, Duration.ZERO));
        System.out.println("default mode, left to expire: " + counts);
        assertThat(counts.wins()).containsExactly(100, 0, 0);
    }

    @Test
    void theFairModeTakesTurns() {
        Counts counts = run(three(), new Job(Duration.ofSeconds(10), Duration.ofMillis(150), true, TURN));
        System.out.println("fair mode (turn 400 ms), released after 150 ms of work: " + counts);
        assertThat(counts.wins()).containsExactly(25, 25, 25);
    }

    @Test
    void theFairModeReleasesARecordLeftToExpireSoThatTheOthersGetTheirTurn() {
        Counts counts = run(three(), new Job(Duration.ofMillis(150), Duration.ofMillis(30), false, TURN));
        System.out.println("fair mode (turn 400 ms), left to expire: " + counts);
        assertThat(counts.wins()).containsExactly(25, 25, 25);
    }

    @Test
    void twoInstancesWithAWindowSizedForThreeTakeTurnsToo() {
        Counts counts = run(List.of(locks("a"), locks("b")),
                new Job(Duration.ofSeconds(10), Duration.ofMillis(150), true, TURN));
        System.out.println("fair mode (turn 400 ms), two instances: " + counts);
        assertThat(counts.wins()).containsExactly(TWO_A, TWO_B);
    }

    @Test
    void theTurnWindowCanBeTheInstancesDefault() {
        List<NamedLocks> fair = List.of(locks("a", NamedLocks.builder(store).fairTurn(TURN)),
                locks("b", NamedLocks.builder(store).fairTurn(TURN)),
                locks("c", NamedLocks.builder(store).fairTurn(TURN)));
        Counts counts = run(fair, new Job(Duration.ofSeconds(10), Duration.ofMillis(150), true, TURN));
        assertThat(counts.wins()).containsExactly(25, 25, 25);
        assertThat(fair.get(0).tryAcquire("other", Duration.ofSeconds(1)).acquired()).isTrue();
    }

    @Test
    void anInstanceAloneLosesOneAttemptThenRunsWhileQuietLookingAgainEveryTenWindows() {
        Counts counts = run(List.of(locks("a")), new Job(Duration.ofSeconds(10), Duration.ofMillis(150), true, TURN));
        System.out.println("fair mode (turn 400 ms), one instance alone: " + counts);
        assertThat(counts.tries()).containsExactly(100);
        // Yields at 200 ms; nobody took it, so quiet for 10 windows (4 s); a yield every 4.2 s or so after that.
        assertThat(counts.wins()).containsExactly(95);
    }

    /**
     * b joins after 10 s, while a, alone until then, is quiet; b's calls come after a's in each period, so b wins only
     * when a yields: a looks again (yields) about every ten windows, and from b's first win on they take turns.
     */
    @Test
    void aNewcomerWaitsAtMostAboutTenWindowsBehindAQuietInstance() {
        Counts counts = run(List.of(locks("a"), locks("b")),
                new Job(Duration.ofSeconds(10), Duration.ofMillis(150), true, TURN),
                new Duration[] {null, Duration.ofSeconds(10)});
        Duration waited = Duration.ofNanos(counts.firstWinNanos()[1]).minus(Duration.ofMillis(10_040));
        System.out.println("fair mode (turn 400 ms), b joins after 10 s: " + counts + ", b's first run "
                + waited.toMillis() + " ms after its first call");
        assertThat(counts.tries()).containsExactly(100, 50);
        assertThat(waited).isLessThanOrEqualTo(TURN.multipliedBy(11));
        assertThat(counts.wins()).containsExactly(NEWCOMER_A, NEWCOMER_B);
    }

    @Test
    void anotherInstancesAcquisitionEndsTheQuiet() throws Exception {
        NamedLocks a = locks("a");
        NamedLocks b = locks("b");
        ((AcquireResult.Acquired) a.tryAcquire(NAME, Duration.ofSeconds(10), TURN)).handle().release();
        assertThat(a.tryAcquire(NAME, Duration.ofSeconds(10), TURN).acquired()).as("yields").isFalse();
        LockHandle mine = ((AcquireResult.Acquired) a.tryAcquire(NAME, Duration.ofSeconds(10), TURN)).handle();
        mine.release();
        time.advance(Duration.ofMillis(10));
        assertThat(a.tryAcquire(NAME, Duration.ofSeconds(10), TURN).acquired())
                .as("quiet: nobody took its yield, so it runs within its window").isTrue();
        a.held().get(0).release();
        time.advance(Duration.ofMillis(500)); // a's window is over: b takes it as in the default mode
        ((AcquireResult.Acquired) b.tryAcquire(NAME, Duration.ofSeconds(10), TURN)).handle().release();
        ((AcquireResult.Acquired) a.tryAcquire(NAME, Duration.ofSeconds(10), TURN)).handle().release();
        assertThat(a.tryAcquire(NAME, Duration.ofSeconds(10), TURN).acquired())
                .as("b acquired since a's quiet began: a yields again").isFalse();
    }

    @Test
    void aYieldedTurnIsTakenByTheNextAttemptThatFindsTheSameVersionAndAWaitingAcquireGetsIt() throws Exception {
        NamedLocks a = locks("a");
        NamedLocks b = locks("b");
        LockHandle first = ((AcquireResult.Acquired) a.tryAcquire(NAME, Duration.ofSeconds(10), TURN)).handle();
        first.release();
        time.advance(Duration.ofMillis(10));
        AcquireResult yielded = a.tryAcquire(NAME, Duration.ofSeconds(10), TURN);
        assertThat(yielded).isInstanceOf(AcquireResult.HeldByAnother.class);
        assertThat(((AcquireResult.HeldByAnother) yielded).retryAfter()).isEqualTo(Duration.ofMillis(390));
        assertThat(a.tryAcquire(NAME, Duration.ofSeconds(10), TURN).acquired())
                .as("the same version again: nobody asked meanwhile").isTrue();
        a.held().get(0).release();

        // A waiting acquire (the instance's own turn window) loses one retry at most.
        NamedLocks c = locks("c", NamedLocks.builder(store).fairTurn(TURN));
        ((AcquireResult.Acquired) c.tryAcquire(NAME, Duration.ofSeconds(10))).handle().release();
        var waiting = c.acquireAsync(NAME, Duration.ofSeconds(10), Duration.ofSeconds(5));
        assertThat(waiting).as("yielded: looks again in 400 ms").isNotDone();
        time.advance(Duration.ofMillis(399));
        assertThat(waiting).isNotDone();
        time.advance(Duration.ofMillis(1));
        assertThat(waiting.get().acquired()).isTrue();
        assertThat(b.tryAcquire(NAME, Duration.ofSeconds(10)).acquired()).isFalse();
    }

    @Test
    void aYieldOnItsOwnEndedRecordWritesTheReleaseAndAnotherInstanceTakesItAtOnce() throws Exception {
        NamedLocks a = locks("a");
        NamedLocks b = locks("b");
        assertThat(a.tryAcquire(NAME, Duration.ofMillis(150), TURN).acquired()).isTrue();
        assertThat(b.tryAcquire(NAME, Duration.ofMillis(150), TURN).acquired()).isFalse();
        time.advance(Duration.ofMillis(160)); // a's acquisition ended at 135 ms; its record expired at 150 ms
        assertThat(a.held()).isEmpty();
        assertThat(a.tryAcquire(NAME, Duration.ofMillis(150), TURN).acquired()).as("a yields").isFalse();
        LeaseRecord stored = LeaseRecordCodec.decode(store.read("locks/" + NAME, Duration.ofSeconds(1)).orElseThrow()
                .content());
        assertThat(stored.isReleased()).as("a released its own record (L4's write, same generation)").isTrue();
        assertThat(stored.generation()).isEqualTo(1);
        AcquireResult taken = b.tryAcquire(NAME, Duration.ofMillis(150), TURN);
        assertThat(taken.acquired()).as("b takes the released record at once").isTrue();
        assertThat(((AcquireResult.Acquired) taken).handle().token()).isEqualTo(2);
    }

    /** L7: a holder extends; the turn rule never makes it yield (and so never releases a record still held). */
    @Test
    void rule7_aHolderExtendsInsteadOfYielding() {
        NamedLocks a = locks("a");
        LockHandle first = ((AcquireResult.Acquired) a.tryAcquire(NAME, Duration.ofSeconds(10), TURN)).handle();
        first.release();
        time.advance(Duration.ofMillis(10));
        a.tryAcquire(NAME, Duration.ofSeconds(10), TURN); // yields
        LockHandle second = ((AcquireResult.Acquired) a.tryAcquire(NAME, Duration.ofSeconds(10), TURN)).handle();
        time.advance(Duration.ofMillis(10));
        assertThat(a.tryAcquire(NAME, Duration.ofSeconds(10), TURN))
                .isEqualTo(new AcquireResult.Acquired(second, true));
        assertThat(second.isHeld()).isTrue();
    }

    /**
     * L7 planted: a turn rule that yields while holding releases a record whose acquisition still counts as held, and
     * another instance takes it at once: two holders. The engine's rule never does (test above); the lock simulation
     * plants the same defect ({@code LockSimulationSeams.yieldWhileHolding}).
     */
    @Test
    void rule7_aTurnRuleThatYieldsWhileHoldingWouldMakeTwoHolders() {
        NamedLocks a = locks("a", LockSimulationSeams.yieldWhileHolding(NamedLocks.builder(store)));
        NamedLocks b = locks("b");
        LockHandle first = ((AcquireResult.Acquired) a.tryAcquire(NAME, Duration.ofSeconds(10), TURN)).handle();
        first.release();
        time.advance(Duration.ofMillis(10));
        a.tryAcquire(NAME, Duration.ofSeconds(10), TURN); // yields on its release
        LockHandle second = ((AcquireResult.Acquired) a.tryAcquire(NAME, Duration.ofSeconds(10), TURN)).handle();
        assertThat(a.tryAcquire(NAME, Duration.ofSeconds(10), TURN).acquired()).isFalse();
        LockHandle other = ((AcquireResult.Acquired) b.tryAcquire(NAME, Duration.ofSeconds(10))).handle();
        assertThat(second.isHeld() && other.isHeld()).as("two holders under the planted rule").isTrue();
    }

    @Test
    void withLockSaysThatItYieldedItsTurn() {
        NamedLocks a = locks("a", NamedLocks.builder(store).fairTurn(TURN));
        Long first = a.withLock(NAME, Duration.ofSeconds(10), lock -> lock.token());
        assertThat(first).isEqualTo(1L);
        assertThatThrownBy(() -> a.withLock(NAME, Duration.ofSeconds(10), lock -> lock.token()))
                .isInstanceOf(LockNotAcquiredException.class)
                .hasMessageContaining("the lock 'report-daily' is released (token 1), but this instance held it less"
                        + " than its fair turn ago");
        Long next = a.withLock(NAME, Duration.ofSeconds(10), lock -> lock.token());
        assertThat(next).as("nobody took it: the next attempt runs").isEqualTo(2L);
    }

    @Test
    void aNegativeOrTooLongTurnIsRefusedNamingTheSetting() {
        assertThatThrownBy(() -> NamedLocks.builder(store).fairTurn(Duration.ofMillis(-1)))
                .isInstanceOf(InvalidSettingException.class).hasMessageContaining("fairTurn must be zero")
                .hasMessageContaining("-1ms");
        NamedLocks a = locks("a");
        assertThatThrownBy(() -> a.tryAcquire(NAME, Duration.ofSeconds(1), Duration.ofDays(8)))
                .isInstanceOf(InvalidSettingException.class).hasMessageContaining("at most 7 days");
    }
}
