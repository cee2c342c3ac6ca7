package dev.hoplock.spring.test;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.core.lock.AcquireResult;
import dev.hoplock.core.lock.LockHandle;
import dev.hoplock.core.lock.Locks;
import dev.hoplock.spring.leader.BackendDecorator;
import dev.hoplock.spring.leader.HoplockElections;
import dev.hoplock.spring.ownership.HoplockOwnership;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import static dev.hoplock.spring.test.AutoConfigureHoplock.Time.VIRTUAL;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code @AutoConfigureHoplock(time = VIRTUAL)}: every elector, the named locks and the ownership group member of the
 * context run on the context's virtual clock, which only the test moves. The store stops answering through a test
 * decorator (an outage): what runs out then runs out on the virtual clock.
 */
@SpringBootTest(classes = {TestApplication.class, VirtualTimeContextTests.OutageConfiguration.class})
@AutoConfigureHoplock(time = VIRTUAL)
class VirtualTimeContextTests {

    private static final Duration TTL = Duration.ofSeconds(3);

    @TestConfiguration(proxyBeanMethods = false)
    static class OutageConfiguration {

        @Bean
        Outage outage() {
            return new Outage();
        }
    }

    /** Makes every store request of every primitive fail as an unreachable store's while {@link #down} is set. */
    static final class Outage implements BackendDecorator {

        volatile boolean down;

        @Override
        public Backend decorate(String election, Backend backend) {
            return decorate(Primitive.ELECTION, election, backend);
        }

        @Override
        public Backend decorate(Primitive primitive, String name, Backend backend) {
            return new Backend() {
                @Override
                public Optional<StoredObject> read(String key, Duration timeout) throws BackendException {
                    check();
                    return backend.read(key, timeout);
                }

                @Override
                public WriteResult write(String key, Handle expected, byte[] content, Duration timeout)
                        throws BackendException {
                    check();
                    return backend.write(key, expected, content, timeout);
                }

                @Override
                public DeleteResult delete(String key, Handle expected, Duration timeout) throws BackendException {
                    check();
                    return backend.delete(key, expected, timeout);
                }

                @Override
                public String describe() {
                    return backend.describe();
                }
            };
        }

        private void check() throws BackendException {
            if (down) {
                throw new BackendException(BackendException.Kind.UNREACHABLE, "the test's outage");
            }
        }
    }

    @Autowired
    HoplockTestControl hoplock;

    @Autowired
    HoplockElections elections;

    @Autowired
    HoplockOwnership ownership;

    @Autowired
    Locks locks;

    @Autowired
    TestApplication.Jobs jobs;

    @Autowired
    Outage outage;

    @BeforeEach
    void leadAndOwnEverything() {
        outage.down = false;
        hoplock.makeLeader();
        hoplock.ownAllKeys("tenant-1");
    }

    @AfterEach
    void storeBack() {
        outage.down = false;
    }

    @Test
    void theEnginesReadTheVirtualClockWhichMovesOnlyWhenTheTestAdvancesIt() {
        assertThat(hoplock.isVirtualTime()).isTrue();
        Duration before = hoplock.elapsed();
        Instant wall = hoplock.wallNow();
        assertThat(wall).isAfterOrEqualTo(HoplockContextCustomizer.VIRTUAL_START).isBefore(Instant.parse("2026-02-01T00:00:00Z"));
        Duration left = elections.getDefault().timeLeft();

        assertThat(hoplock.elapsed()).isEqualTo(before);
        assertThat(elections.getDefault().timeLeft()).isEqualTo(left);

        hoplock.advance(Duration.ofMillis(500));
        assertThat(hoplock.elapsed()).isEqualTo(before.plusMillis(500));
        assertThat(hoplock.wallNow()).isEqualTo(wall.plusMillis(500));
    }

    @Test
    void theLeaderLosesItsTermOnceItCouldNotRenewForATtl() {
        assertThat(hoplock.isLeader()).isTrue();
        outage.down = true;

        hoplock.advance(TTL.dividedBy(2));
        assertThat(hoplock.isLeader()).as("still within its TTL").isTrue();

        hoplock.advance(TTL);
        assertThat(hoplock.isLeader()).as("past its TTL without a renewal").isFalse();

        outage.down = false;
        hoplock.makeLeader();
        assertThat(hoplock.isLeader()).isTrue();
    }

    @Test
    void aLockEndsAtItsTtlOnTheVirtualClock() {
        AcquireResult result = locks.tryAcquire("virtual-report", Duration.ofMinutes(10));
        assertThat(result).as("the lock is free").isInstanceOf(AcquireResult.Acquired.class);
        LockHandle lock = ((AcquireResult.Acquired) result).handle();
        try {
            hoplock.advance(Duration.ofMinutes(8));
            assertThat(lock.isHeld()).as("8 of 10 minutes").isTrue();
            hoplock.advance(Duration.ofMinutes(2));
            assertThat(lock.isHeld()).as("10 of 10 minutes").isFalse();
        } finally {
            lock.release();
        }
    }

    @Test
    void theMinimumHoldOfWithLockEndsOnTheVirtualClock() {
        hoplock.calls().reset();
        jobs.dailyExport();
        hoplock.calls().assertRan("dailyExport", 1);

        hoplock.advance(Duration.ofSeconds(59));
        jobs.dailyExport();
        hoplock.calls().assertSkipped("dailyExport", 1);

        // Without the Locks bean's clock under the gate, the minimum hold waited a real minute here.
        hoplock.advance(Duration.ofSeconds(2));
        jobs.dailyExport();
        hoplock.calls().assertRan("dailyExport", 2);
    }

    @Test
    void aMemberThatCannotRenewItsLivenessLeaseLosesItsKeysAfterItsTtl() {
        assertThat(hoplock.isOwner("tenant-1")).isTrue();
        outage.down = true;

        hoplock.advance(TTL.plusSeconds(1));
        assertThat(hoplock.isOwner("tenant-1")).as("past the member's TTL without a renewal").isFalse();
        jobs.bill("tenant-1");
        hoplock.calls().assertSkipped("bill", 1);

        outage.down = false;
        hoplock.ownAllKeys("tenant-1");
        assertThat(ownership.group().isOwner("tenant-1")).isTrue();
    }

    @Test
    void theWaitsOfTheControlAdvanceTheClockNotTheWallClock() {
        hoplock.makeFollower();
        Duration before = hoplock.elapsed();
        long real = System.nanoTime();
        hoplock.crashRival();
        assertThat(hoplock.elapsed().minus(before)).as("virtual time of the takeover").isGreaterThanOrEqualTo(TTL);
        assertThat(Duration.ofNanos(System.nanoTime() - real)).as("real time of the takeover")
                .isLessThan(TTL);
        assertThat(elections.getDefault().isLeader()).isTrue();
    }
}
