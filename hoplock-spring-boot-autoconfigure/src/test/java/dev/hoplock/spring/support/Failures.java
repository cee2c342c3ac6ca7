package dev.hoplock.spring.support;

import dev.hoplock.spring.autoconfigure.HoplockFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

import static org.assertj.core.api.Assertions.assertThat;

/** Runs the failure analysis Boot would print for a failed start. */
public final class Failures {

    private Failures() {
    }

    /** The analysis of {@code failure} by hoplock's analyzer; fails the test if it does not apply. */
    public static FailureAnalysis analyze(Throwable failure) {
        assertThat(failure).as("the context should have failed to start").isNotNull();
        FailureAnalysis analysis = new HoplockFailureAnalyzer(null).analyze(failure);
        assertThat(analysis).as("hoplock's failure analyzer should explain %s", failure).isNotNull();
        return analysis;
    }
}
