package com.example.billing;

import dev.hoplock.spring.leader.LeaderOnly;
import dev.hoplock.spring.lock.LockContextHolder;
import dev.hoplock.spring.lock.WithLock;
import dev.hoplock.spring.test.AutoConfigureHoplock;
import dev.hoplock.spring.test.HoplockTestControl;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.stereotype.Component;

import java.time.Duration;

import static dev.hoplock.spring.test.AutoConfigureHoplock.Time.VIRTUAL;
import static org.assertj.core.api.Assertions.assertThat;

@SpringBootTest(classes = VirtualTimeTests.ReportsApplication.class,
        properties = "hoplock.ownership.group=billing")
@AutoConfigureHoplock(ttl = "30s", time = VIRTUAL)
class VirtualTimeTests {

    @SpringBootApplication
    static class ReportsApplication {

        @Component
        static class Reports {

            @LeaderOnly
            public String closeTheDay() {
                return "closed";
            }

            /** Runs {@code work} under the lock; says whether the lock was still held after it. */
            @WithLock(name = "quarterly-report", lockAtMostFor = "10m", interruptOnLoss = false)
            public Boolean quarterlyReport(Runnable work) {
                work.run();
                return LockContextHolder.require().isHeld();
            }

            @LeaderOnly(key = "#tenant")
            public String invoice(String tenant) {
                return "invoiced " + tenant;
            }
        }
    }

    @Autowired
    HoplockTestControl hoplock;

    @Autowired
    ReportsApplication.Reports reports;

    @BeforeEach
    void leadAndOwnEverything() {
        hoplock.makeLeader();
        hoplock.ownAllKeys("tenant-a");
    }

    @Test
    void aReportThatRunsPastLockAtMostForLosesItsLock() {
        assertThat(reports.quarterlyReport(() -> hoplock.advance(Duration.ofMinutes(5)))).isTrue();
        assertThat(reports.quarterlyReport(() -> hoplock.advance(Duration.ofMinutes(11)))).isFalse();
    }

    @Test
    void whenTheLeaderCrashesThisInstanceTakesOverAfterTheTtl() {
        hoplock.makeFollower();
        assertThat(reports.closeTheDay()).isNull();

        Duration before = hoplock.elapsed();
        hoplock.crashRival();                              // waits by advancing the virtual clock
        assertThat(hoplock.elapsed().minus(before)).isGreaterThanOrEqualTo(Duration.ofSeconds(30));
        assertThat(reports.closeTheDay()).isEqualTo("closed");
    }

    @Test
    void aTenantLostToAnotherMemberIsNoLongerInvoicedHere() {
        assertThat(reports.invoice("tenant-a")).isEqualTo("invoiced tenant-a");

        hoplock.loseKey("tenant-a");
        assertThat(reports.invoice("tenant-a")).isNull();
    }
}
