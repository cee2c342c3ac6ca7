package dev.hoplock.spring.autoconfigure;

/**
 * The Spring Boot generation this build of the auto-configuration is for: Boot 3 ({@code hoplock-spring-boot-*}
 * has its own copy saying Boot 4). {@link BootGenerationCheck} compares it with the running Boot.
 */
final class BuiltForBoot {

    /** Boot's major version. */
    static final int MAJOR = 3;

    /** This auto-configuration's artifact. */
    static final String AUTOCONFIGURE = "dev.hoplock:hoplock-spring-boot3-autoconfigure";

    /** The starter that brings it. */
    static final String STARTER = "dev.hoplock:hoplock-spring-boot3-starter";

    private BuiltForBoot() {
    }
}
