package dev.hoplock.spring.autoconfigure;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A real start from a properties file: Boot's failure report names the {@code hoplock.*} property and the file and
 * line it was set on, as Boot's own report of an invalid property value does.
 */
@ExtendWith(OutputCaptureExtension.class)
class FailureReportOriginTests {

    @Test
    void theReportNamesThePropertyAndTheFileAndLineItWasSetOn(CapturedOutput output) {
        SpringApplication application = new SpringApplication(App.class);
        application.setWebApplicationType(WebApplicationType.NONE);

        assertThatThrownBy(() -> application.run("--spring.config.location=classpath:origin-test/application.properties",
                "--spring.main.banner-mode=off")).isNotNull();

        assertThat(output).contains("APPLICATION FAILED TO START")
                .contains("Invalid hoplock setting hoplock.ttl (election 'default')")
                .contains("hoplock.ttl set in class path resource [origin-test/application.properties] - 3:13")
                .contains("Set hoplock.ttl to at least 1s");
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration(HoplockAutoConfiguration.class)
    static class App {
    }
}
