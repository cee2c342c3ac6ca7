package dev.hoplock.spring.test;

import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.MergedContextConfiguration;
import org.springframework.test.context.support.TestPropertySourceUtils;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What {@link AutoConfigureHoplock} does to a test context: the in-memory store and the TTL as properties (just below
 * the test's inlined properties), and the test support beans. Equal for equal attributes, so that Spring's context
 * cache shares contexts as usual.
 */
final class HoplockContextCustomizer implements ContextCustomizer {

    static final String PROPERTY_SOURCE = "hoplockTestSupport";

    private final String ttl;
    private final long timeoutSeconds;

    HoplockContextCustomizer(String ttl, long timeoutSeconds) {
        if (timeoutSeconds <= 0) {
            throw new IllegalArgumentException("@AutoConfigureHoplock(timeoutSeconds) must be positive, not "
                    + timeoutSeconds);
        }
        this.ttl = ttl.strip();
        this.timeoutSeconds = timeoutSeconds;
    }

    @Override
    public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration config) {
        ConfigurableEnvironment environment = context.getEnvironment();
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("hoplock.backend", "memory");
        if (!ttl.isEmpty()) {
            properties.put("hoplock.ttl", ttl);
            if (environment.containsProperty("hoplock.ownership.group")) {
                properties.put("hoplock.ownership.ttl", ttl);
            }
        }
        MutablePropertySources sources = environment.getPropertySources();
        MapPropertySource source = new MapPropertySource(PROPERTY_SOURCE, properties);
        if (sources.contains(TestPropertySourceUtils.INLINED_PROPERTIES_PROPERTY_SOURCE_NAME)) {
            sources.addAfter(TestPropertySourceUtils.INLINED_PROPERTIES_PROPERTY_SOURCE_NAME, source);
        } else {
            sources.addFirst(source);
        }
        if (!(context instanceof BeanDefinitionRegistry registry)) {
            throw new IllegalStateException("@AutoConfigureHoplock needs a test context that accepts bean definitions"
                    + " (a GenericApplicationContext, as every Spring Boot test context is), not "
                    + context.getClass().getName());
        }
        Duration timeout = Duration.ofSeconds(timeoutSeconds);
        RootBeanDefinition calls = new RootBeanDefinition(GateCalls.class, () -> new GateCalls(timeout));
        calls.setRole(BeanDefinition.ROLE_INFRASTRUCTURE);
        registry.registerBeanDefinition("hoplockTestGateCalls", calls);
        RootBeanDefinition advisor = new RootBeanDefinition(GateCallsAdvisor.class, GateCallsAdvisor::new);
        advisor.setRole(BeanDefinition.ROLE_INFRASTRUCTURE);
        registry.registerBeanDefinition("hoplockTestGateCallsAdvisor", advisor);
        registry.registerBeanDefinition("hoplockTestControl",
                new RootBeanDefinition(HoplockTestControl.class, () -> new HoplockTestControl(timeout)));
    }

    @Override
    public boolean equals(@Nullable Object other) {
        return other instanceof HoplockContextCustomizer that && ttl.equals(that.ttl)
                && timeoutSeconds == that.timeoutSeconds;
    }

    @Override
    public int hashCode() {
        return Objects.hash(ttl, timeoutSeconds);
    }
}
