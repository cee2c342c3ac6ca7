package dev.hoplock.spring.test;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.junit.HoplockControl;
import dev.hoplock.spring.leader.HoplockElections;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code @AutoConfigureHoplock} on a whole application: the store it switches to, and each gate driven both ways. */
@SpringBootTest(classes = TestApplication.class)
@AutoConfigureHoplock
class AutoConfigureHoplockTests {

    private static final String HEARTBEAT = "Jobs.heartbeat";

    @Autowired
    HoplockTestControl hoplock;

    @Autowired
    TestApplication.Jobs jobs;

    @Autowired
    Backend backend;

    @Autowired
    HoplockElections elections;

    @BeforeEach
    void leadOwnAndHoldNothingElsewhere() {
        hoplock.makeLeader();
        hoplock.ownAllKeys("tenant-1", "tenant-2");
        hoplock.freeLock("report");
        hoplock.calls().reset();
    }

    @Test
    void theContextElectsOnTheInMemoryStoreWithTheTestTtlWhateverTheApplicationConfigures() {
        assertThat(backend).isInstanceOf(InMemoryBackend.class);
        assertThat(hoplock.store()).isSameAs(backend);
        assertThat(elections.getDefault().settings().ttl()).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void theScheduledLeaderOnlyJobRunsWhileThisInstanceLeadsAndIsSkippedWhileItFollows() {
        hoplock.calls().awaitRuns(HEARTBEAT, 2);

        hoplock.makeFollower();
        assertThat(hoplock.isLeader()).isFalse();
        assertThat(elections.getDefault().holder().orElseThrow().owner()).isEqualTo(HoplockControl.RIVAL);
        hoplock.calls().awaitSkips(HEARTBEAT, 1);
        // The scheduler runs one call at a time: once one was skipped, no earlier call is still running.
        hoplock.calls().reset();
        hoplock.calls().awaitSkips(HEARTBEAT, 3);
        hoplock.calls().assertNotRun(HEARTBEAT);

        long before = elections.getDefault().holder().orElseThrow().generation();
        hoplock.makeLeader();
        assertThat(elections.getDefault().currentLease().orElseThrow().generation()).isGreaterThan(before);
        hoplock.calls().awaitRuns(HEARTBEAT, 2);
    }

    @Test
    void afterTheRivalCrashesThisInstanceTakesOverOnlyOnceTheRivalsLeaseHasRunOut() {
        hoplock.makeFollower();
        long crashed = System.nanoTime();
        hoplock.crashRival();
        assertThat(hoplock.isLeader()).isTrue();
        // The rival's last renewal was at most TTL/3 (1 s) before the crash; its lease then lasted a TTL (3 s).
        assertThat(Duration.ofNanos(System.nanoTime() - crashed)).isGreaterThanOrEqualTo(Duration.ofSeconds(2));
        hoplock.calls().awaitRuns(HEARTBEAT, 1);
    }

    @Test
    void aWithLockMethodIsSkippedWhileAnotherInstanceHoldsTheLockAndRunsOnceItIsFree() {
        hoplock.holdLockElsewhere("report");
        assertThat(jobs.report()).isNull();
        hoplock.calls().assertSkipped("report", 1);
        hoplock.calls().assertNotRun("report");

        hoplock.freeLock("report");
        assertThat(jobs.report()).isEqualTo("done");
        hoplock.calls().assertRanOnce("Jobs.report");
    }

    @Test
    void aKeyedLeaderOnlyMethodRunsOnlyForTheKeysThisInstanceOwns() {
        hoplock.loseKeys(List.of("tenant-1"), List.of("tenant-2"));
        jobs.bill("tenant-1");
        jobs.bill("tenant-2");
        hoplock.calls().assertRanOnce("bill");
        hoplock.calls().assertSkipped("bill", 1);

        hoplock.ownAllKeys();
        assertThat(hoplock.isOwner("tenant-1")).isTrue();
        jobs.bill("tenant-1");
        hoplock.calls().assertRan("bill", 2);
    }

    @Test
    void advancingTheClockOfARealTimeContextSaysHowToGetVirtualTime() {
        assertThat(hoplock.isVirtualTime()).isFalse();
        assertThatThrownBy(() -> hoplock.advance(Duration.ofSeconds(1))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("@AutoConfigureHoplock(time = AutoConfigureHoplock.Time.VIRTUAL)");
    }

    @Test
    void aFailedWaitSaysWhatItWaitedFor() {
        hoplock.calls().reset();
        assertThatThrownBy(() -> hoplock.calls().assertRanOnce("report")).isInstanceOf(AssertionError.class)
                .hasMessageContaining("expected report to have run 1 time(s), but it ran 0");
    }
}
