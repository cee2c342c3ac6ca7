package dev.hoplock.samples.readme;

import dev.hoplock.spring.leader.HoplockElections;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With {@code hoplock.enabled=false}: no elector, no store, and {@code @LeaderOnly} methods are not gated, so they
 * run (on every instance: the start-up log says so).
 */
@SpringBootTest(properties = "hoplock.enabled=false")
@ExtendWith(OutputCaptureExtension.class)
class TestsWithHoplockDisabledTests {

    @Autowired
    InvoiceRun invoices;

    @Autowired
    ApplicationContext context;

    @Test
    void leaderOnlyMethodsRunAndNothingIsElected() {
        assertThat(context.getBeanNamesForType(HoplockElections.class)).isEmpty();
        assertThat(invoices.issueInvoices()).contains("issued");
    }

    @Test
    void theStartUpLogSaysThatLeaderOnlyMethodsRunEverywhere(CapturedOutput output) {
        // The context (cached for this class) started before this method; a fresh one shows the notice.
        try (var fresh = new org.springframework.boot.builder.SpringApplicationBuilder(ExistingApplication.class)
                .properties("hoplock.enabled=false", "spring.main.banner-mode=off").run()) {
            assertThat(output.getOut()).contains("hoplock: disabled (hoplock.enabled=false)",
                    "run on every instance");
        }
    }
}
