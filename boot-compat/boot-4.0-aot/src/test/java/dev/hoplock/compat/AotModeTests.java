package dev.hoplock.compat;

import org.junit.jupiter.api.Test;
import org.springframework.aot.AotDetector;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.util.ClassUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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

    /**
     * AOT fixed the store when process-aot ran (filesystem, from the application's properties): a run-time
     * hoplock.backend that names another store stops the start instead of electing silently on the build-time store.
     */
    @Test
    void aRunTimeStoreOtherThanTheProcessedOneStopsTheStart() {
        assertThatThrownBy(() -> new SpringApplicationBuilder(CompatApplication.class).main(CompatApplication.class)
                .run("--hoplock.backend=memory", "--hoplock.owner=app-aot-other"))
                .hasStackTraceContaining("hoplock.backend chooses memory, but this application runs from Spring AOT"
                        + " code generated with hoplock.backend=filesystem")
                .hasStackTraceContaining("Run spring-boot:process-aot with the hoplock.backend");
    }
}
