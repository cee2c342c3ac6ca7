package dev.hoplock.samples.readme;

import dev.hoplock.spring.autoconfigure.HoplockFailureAnalyzer;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.diagnostics.FailureAnalysis;

import java.util.Objects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Without a store (no test properties): the start fails, and the failure says what to put in the test properties.
 * Nothing ever picks the in-memory store on its own, which would let every instance lead in production.
 */
class NoStoreConfiguredTests {

    @Test
    void withoutAStoreTheStartFailsSayingWhatToPutInTheTestProperties() {
        Throwable failure = catchThrowable(() -> new SpringApplicationBuilder(ExistingApplication.class)
                .properties("spring.config.name=no-such-file", "spring.main.banner-mode=off").run().close());
        FailureAnalysis analysis = new HoplockFailureAnalyzer(null).analyze(failure);
        assertThat(analysis).as("hoplock explains %s", failure).isNotNull();
        Objects.requireNonNull(analysis);
        assertThat(analysis.getDescription()).contains("hoplock has no store", "hoplock.backend is not set");
        assertThat(analysis.getAction()).contains("hoplock.backend=memory in src/test/resources/application.properties",
                "hoplock.enabled=false");
    }
}
