package dev.hoplock.compat.wrong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A Spring Boot 3.5 application with the Boot 4 starter does not start half-working (no health, no meters): the
 * start fails with Boot's failure report, which names the starter to use.
 */
@ExtendWith(OutputCaptureExtension.class)
class WrongStarterTests {

    @TempDir
    Path directory;

    @Test
    void aBoot3ApplicationWithTheBoot4StarterIsToldToUseTheBoot3Starter(CapturedOutput output) {
        assertThat(SpringBootVersion.getVersion()).isEqualTo(System.getProperty("compat.expected-boot-version"));
        assertThatThrownBy(() -> new SpringApplicationBuilder(App.class)
                .web(WebApplicationType.NONE)
                .properties("spring.main.banner-mode=off", "hoplock.backend=filesystem",
                        "hoplock.filesystem.directory=" + directory, "hoplock.owner=wrong")
                .run())
                .hasMessageContaining("dev.hoplock:hoplock-spring-boot-autoconfigure is built for Spring Boot 4.x,"
                        + " but this application runs Spring Boot 3.5.7");
        assertThat(output).contains("APPLICATION FAILED TO START")
                .contains("Use dev.hoplock:hoplock-spring-boot3-starter (Spring Boot 3.5.x) in place of"
                        + " dev.hoplock:hoplock-spring-boot-starter");
    }

    /** An application with nothing but auto-configuration. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {
    }
}
