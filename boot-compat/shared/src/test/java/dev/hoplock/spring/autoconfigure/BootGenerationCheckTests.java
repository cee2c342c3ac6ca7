package dev.hoplock.spring.autoconfigure;

import dev.hoplock.compat.CompatApplication;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootVersion;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The starter generation check on the Boot version this module builds with: it is registered, the running Boot
 * passes it, and the other generation is refused with the artifact to use.
 */
class BootGenerationCheckTests {

    @Test
    void isRegisteredAndPassesOnTheBootItIsBuiltFor() {
        assertThat(new SpringApplication(CompatApplication.class).getInitializers())
                .hasAtLeastOneElementOfType(BootGenerationCheck.class);
        assertThat(SpringBootVersion.getVersion()).startsWith(BuiltForBoot.MAJOR + ".");
        assertThat(BootGenerationCheck.problem(SpringBootVersion.getVersion())).isEmpty();
        assertThat(BootGenerationCheck.problem(null)).as("an unknown version passes").isEmpty();
    }

    @Test
    void refusesTheOtherGenerationNamingTheArtifactToUse() {
        String other = BuiltForBoot.MAJOR == 4 ? "3.5.7" : "4.0.7";
        String right = BuiltForBoot.MAJOR == 4 ? "dev.hoplock:hoplock-spring-boot3-starter"
                : "dev.hoplock:hoplock-spring-boot-starter";
        assertThat(BootGenerationCheck.problem(other)).hasValueSatisfying(message -> assertThat(message)
                .contains(BuiltForBoot.AUTOCONFIGURE).contains("runs Spring Boot " + other).contains(right));
    }

    @Test
    void aGenerationNoStarterSupportsIsSaidSo() {
        assertThat(BootGenerationCheck.problem("5.0.0")).hasValueSatisfying(message -> assertThat(message)
                .contains("runs Spring Boot 5.0.0").contains("a hoplock release that supports Spring Boot 5.x"));
    }
}
