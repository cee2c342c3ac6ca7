package dev.hoplock.spring.autoconfigure;

import dev.hoplock.spring.HoplockConfigurationException;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.SpringBootVersion;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;

import java.util.Optional;

/**
 * Fails the start when this auto-configuration was built for another Spring Boot generation than the one the
 * application runs (for example {@code hoplock-spring-boot-starter}, built for Boot 4, in a Boot 3.5 application,
 * where the health contributor and the meters would be silently missing). The message names the artifact to use
 * instead. It runs as an {@link ApplicationContextInitializer} (listed in {@code META-INF/spring.factories}), before
 * any auto-configuration, and passes when Boot's version cannot be read (a repackaged Boot).
 */
public final class BootGenerationCheck implements ApplicationContextInitializer<ConfigurableApplicationContext> {

    @Override
    public void initialize(ConfigurableApplicationContext context) {
        problem(SpringBootVersion.getVersion()).ifPresent(description -> {
            throw new HoplockConfigurationException(null, description, "Use " + artifactFor(majorOf(
                    SpringBootVersion.getVersion())) + " in place of " + BuiltForBoot.STARTER
                    + " (the README's table says which artifact fits which Spring Boot version).");
        });
    }

    /**
     * What is wrong when the application runs Spring Boot {@code runningVersion}, or empty when this build fits it.
     *
     * @param runningVersion Boot's version as {@link SpringBootVersion#getVersion()} reports it; null when unknown
     */
    static Optional<String> problem(@Nullable String runningVersion) {
        int running = majorOf(runningVersion);
        if (running < 0 || running == BuiltForBoot.MAJOR) {
            return Optional.empty();
        }
        return Optional.of(BuiltForBoot.AUTOCONFIGURE + " is built for Spring Boot " + BuiltForBoot.MAJOR
                + ".x, but this application runs Spring Boot " + runningVersion + ": its health contributor and"
                + " meters would be missing. Use " + artifactFor(running) + ".");
    }

    /** The starter for Boot major version {@code major}. */
    static String artifactFor(int major) {
        return switch (major) {
            case 3 -> "dev.hoplock:hoplock-spring-boot3-starter (Spring Boot 3.5.x)";
            case 4 -> "dev.hoplock:hoplock-spring-boot-starter (Spring Boot 4.0.x and 4.1.x)";
            default -> "a hoplock release that supports Spring Boot " + major + ".x (this one supports 3.5.x with"
                    + " hoplock-spring-boot3-starter and 4.0.x and 4.1.x with hoplock-spring-boot-starter)";
        };
    }

    private static int majorOf(@Nullable String version) {
        if (version == null) {
            return -1;
        }
        int dot = version.indexOf('.');
        try {
            return Integer.parseInt(dot < 0 ? version : version.substring(0, dot));
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
