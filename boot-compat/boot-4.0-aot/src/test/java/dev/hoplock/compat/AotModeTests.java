package dev.hoplock.compat;

import org.junit.jupiter.api.Test;
import org.springframework.aot.AotDetector;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.util.ClassUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The compatibility application in Spring AOT mode on the JVM: this module's tests run with
 * {@code spring.aot.enabled=true}, after {@code spring-boot:process-aot} generated the application's bean
 * definitions; it repeats every test of {@link CompatApplicationTests} (election, {@code @LeaderOnly} gate, events,
 * health, meters, endpoint) on the application started from the generated initializer.
 */
class AotModeTests extends CompatApplicationTests {

    private static final String CONFIGURATION_CLASS_PARSER =
            "org.springframework.context.annotation.internalConfigurationAnnotationProcessor";

    @Test
    void startsFromTheAotGeneratedInitializer() {
        assertThat(AotDetector.useGeneratedArtifacts()).as("spring.aot.enabled=true in this JVM").isTrue();
        assertThat(ClassUtils.isPresent(CompatApplication.class.getName() + "__ApplicationContextInitializer",
                getClass().getClassLoader())).as("process-aot generated the initializer").isTrue();
        ConfigurableApplicationContext context = start("app-aot");
        assertThat(context.getClass().getSimpleName()).as("an AOT start registers the generated bean definitions in a"
                + " plain context, not an annotation-config one").doesNotStartWith("AnnotationConfig");
        assertThat(context.containsBean(CONFIGURATION_CLASS_PARSER)).as("no configuration class parsing").isFalse();
    }
}
