package dev.hoplock.samples.readme;

import dev.hoplock.spring.leader.HoplockElections;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With {@code hoplock.backend=memory} in src/test/resources/application.properties, a {@code @SpringBootTest} starts,
 * its context leads at once, and a {@code @LeaderOnly} method runs when the test calls it, without waiting.
 */
@SpringBootTest
class TestsOnTheMemoryStoreTests {

    @Autowired
    InvoiceRun invoices;

    @Autowired
    HoplockElections elections;

    @Test
    void theContextLeadsAsSoonAsItIsUpSoLeaderOnlyMethodsRun() {
        assertThat(elections.getDefault().isLeader()).as("led by the time the context is up").isTrue();
        assertThat(elections.getDefault().status().backend()).isEqualTo("memory");
        assertThat(invoices.issueInvoices()).contains("issued");
    }
}
