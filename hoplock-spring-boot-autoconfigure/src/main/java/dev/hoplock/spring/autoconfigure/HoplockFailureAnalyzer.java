package dev.hoplock.spring.autoconfigure;

import dev.hoplock.spring.HoplockConfigurationException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns a {@link HoplockConfigurationException} anywhere in a failed start's cause chain into Boot's
 * "APPLICATION FAILED TO START" report: the description names the {@code hoplock.*} property and the problem, the
 * action says how to fix it.
 */
public final class HoplockFailureAnalyzer extends AbstractFailureAnalyzer<HoplockConfigurationException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, HoplockConfigurationException cause) {
        return new FailureAnalysis(cause.description(), cause.action(), cause);
    }
}
