package dev.hoplock.spring.test;

import org.jspecify.annotations.Nullable;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.TestContextAnnotationUtils;

import java.util.List;

/** Turns {@link AutoConfigureHoplock} on a test class (or an enclosing or super class) into its customizer. */
final class HoplockContextCustomizerFactory implements ContextCustomizerFactory {

    @Override
    public @Nullable ContextCustomizer createContextCustomizer(Class<?> testClass,
            List<ContextConfigurationAttributes> configAttributes) {
        AutoConfigureHoplock annotation = TestContextAnnotationUtils.findMergedAnnotation(testClass,
                AutoConfigureHoplock.class);
        return annotation == null ? null : new HoplockContextCustomizer(annotation.ttl(), annotation.timeoutSeconds(),
                annotation.time());
    }
}
