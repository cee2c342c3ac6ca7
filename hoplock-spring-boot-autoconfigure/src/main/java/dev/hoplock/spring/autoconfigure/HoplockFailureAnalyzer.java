package dev.hoplock.spring.autoconfigure;

import dev.hoplock.spring.HoplockConfigurationException;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.origin.Origin;
import org.springframework.core.env.Environment;

/**
 * Turns a {@link HoplockConfigurationException} anywhere in a failed start's cause chain into Boot's
 * "APPLICATION FAILED TO START" report: the description names the {@code hoplock.*} property and the problem, and,
 * as Boot's own report of an invalid property value does, where the property was set (for example
 * {@code class path resource [application.properties] - 3:13}, or the environment variable); the action says how to
 * fix it. The value itself is not repeated from the environment (it may be a secret).
 */
public final class HoplockFailureAnalyzer extends AbstractFailureAnalyzer<HoplockConfigurationException> {

    private final @Nullable Environment environment;

    /**
     * Boot creates the analyzer with the application's environment.
     *
     * @param environment where to look up the origin of the property at fault; null reports no origin
     */
    public HoplockFailureAnalyzer(@Nullable Environment environment) {
        this.environment = environment;
    }

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, HoplockConfigurationException cause) {
        String origin = originOf(cause.property());
        String description = origin == null ? cause.description()
                : cause.description() + " (" + cause.property() + " set in " + origin + ")";
        return new FailureAnalysis(description, cause.action(), cause);
    }

    /** Where {@code property} was set, from the first property source that has it, or null when unknown. */
    private @Nullable String originOf(@Nullable String property) {
        if (environment == null || property == null || !ConfigurationPropertyName.isValid(property)) {
            return null;
        }
        ConfigurationPropertyName name = ConfigurationPropertyName.of(property);
        for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
            ConfigurationProperty found = source.getConfigurationProperty(name);
            if (found != null) {
                Origin origin = found.getOrigin();
                return origin != null ? origin.toString() : null;
            }
        }
        return null;
    }
}
