package com.example.billing;

import dev.hoplock.spring.leader.LeaderOnly;
import dev.hoplock.spring.lock.WithLock;
import dev.hoplock.spring.test.AutoConfigureHoplock;
import dev.hoplock.spring.test.HoplockTestControl;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

@SpringBootTest(classes = BillingTests.BillingApplication.class,
        properties = "hoplock.ownership.group=billing")
@AutoConfigureHoplock
class BillingTests {

    /** The application under test: in your project, your own @SpringBootApplication class. */
    @SpringBootApplication
    @EnableScheduling
    static class BillingApplication {

        @Component
        static class Billing {

            @Scheduled(fixedDelay = 50)
            @LeaderOnly
            public void closeTheDay() {
            }

            @WithLock(name = "monthly-report", lockAtMostFor = "10m")
            public String monthlyReport() {
                return "sent";
            }

            @LeaderOnly(key = "#tenant")
            public void invoice(String tenant) {
            }
        }
    }

    @Autowired
    HoplockTestControl hoplock;

    @Autowired
    BillingApplication.Billing billing;

    @BeforeEach
    void leadAndOwnEverything() {
        // The context is cached and shared between tests: start each from a known state.
        hoplock.makeLeader();
        hoplock.ownAllKeys("tenant-a", "tenant-b");
        hoplock.freeLock("monthly-report");
        hoplock.calls().reset();
    }

    @Test
    void theScheduledJobRunsOnTheLeaderOnly() {
        hoplock.calls().awaitRuns("closeTheDay", 1);

        hoplock.makeFollower();
        hoplock.calls().awaitSkips("closeTheDay", 1);
        hoplock.calls().reset();
        hoplock.calls().awaitSkips("closeTheDay", 2);
        hoplock.calls().assertNotRun("closeTheDay");
    }

    @Test
    void theReportIsSkippedWhileAnotherInstanceHoldsItsLock() {
        hoplock.holdLockElsewhere("monthly-report");
        assertThat(billing.monthlyReport()).isNull();
        hoplock.calls().assertSkipped("monthlyReport", 1);

        hoplock.freeLock("monthly-report");
        assertThat(billing.monthlyReport()).isEqualTo("sent");
        hoplock.calls().assertRanOnce("monthlyReport");
    }

    @Test
    void aTenantIsInvoicedOnlyByItsOwner() {
        hoplock.loseKeys(List.of("tenant-a"), List.of("tenant-b"));
        billing.invoice("tenant-a");
        billing.invoice("tenant-b");
        hoplock.calls().assertRanOnce("invoice");
        hoplock.calls().assertSkipped("invoice", 1);
    }
}
