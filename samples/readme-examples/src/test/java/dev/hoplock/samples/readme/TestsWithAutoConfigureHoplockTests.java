package dev.hoplock.samples.readme;

import dev.hoplock.spring.test.AutoConfigureHoplock;
import dev.hoplock.spring.test.HoplockTestControl;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The existing application's leader-only work tested as docs/testing-your-application.md describes: with
 * {@code @AutoConfigureHoplock} the test makes this instance a follower, sees the call skipped, makes it the leader
 * again and sees the call run.
 */
@SpringBootTest
@AutoConfigureHoplock
class TestsWithAutoConfigureHoplockTests {

    @Autowired
    HoplockTestControl hoplock;

    @Autowired
    InvoiceRun invoices;

    @Test
    void theInvoicesAreIssuedByTheLeaderOnly() {
        hoplock.makeFollower();
        hoplock.calls().reset();
        assertThat(invoices.issueInvoices()).isEmpty();
        hoplock.calls().assertSkipped("InvoiceRun.issueInvoices", 1);

        hoplock.makeLeader();
        assertThat(invoices.issueInvoices()).contains("issued");
        hoplock.calls().assertRanOnce("InvoiceRun.issueInvoices");
    }
}
