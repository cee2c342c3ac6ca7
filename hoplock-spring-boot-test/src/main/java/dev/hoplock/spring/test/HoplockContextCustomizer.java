package dev.hoplock.spring.test;

import dev.hoplock.core.time.VirtualTime;
import dev.hoplock.junit.TestHoplock;
import dev.hoplock.spring.leader.ElectorCustomizer;
import dev.hoplock.spring.lock.LocksCustomizer;
import dev.hoplock.spring.ownership.OwnershipGroupCustomizer;
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
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * What {@link AutoConfigureHoplock} does to a test context: the in-memory store and the TTL as properties (just below
 * the test's inlined properties), and the test support beans; with virtual time a new clock for the context, its
 * driver, and the customizers that put every elector, the named locks and the ownership group member on it. Equal for equal attributes, so that Spring's context
 * cache shares contexts as usual.
 */
final class HoplockContextCustomizer implements ContextCustomizer {

    static final String PROPERTY_SOURCE = "hoplockTestSupport";

    /** Where virtual time starts, as in the JUnit extension. */
    static final Instant VIRTUAL_START = TestHoplock.VIRTUAL_START;

    private static final String VIRTUAL_TIME_DRIVER = "hoplockTestVirtualTimeDriver";

    private final String ttl;
    private final long timeoutSeconds;
    private final AutoConfigureHoplock.Time time;

    HoplockContextCustomizer(String ttl, long timeoutSeconds, AutoConfigureHoplock.Time time) {
        if (timeoutSeconds <= 0) {
            throw new IllegalArgumentException("@AutoConfigureHoplock(timeoutSeconds) must be positive, not "
                    + timeoutSeconds);
        }
        this.ttl = ttl.strip();
        this.timeoutSeconds = timeoutSeconds;
        this.time = time;
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
        @Nullable VirtualTimeDriver driver = null;
        if (time == AutoConfigureHoplock.Time.VIRTUAL) {
            // One clock per context (this method runs once per context the cache creates).
            VirtualTimeDriver created = new VirtualTimeDriver(new VirtualTime(VIRTUAL_START));
            driver = created;
            infrastructure(registry, VIRTUAL_TIME_DRIVER, VirtualTimeDriver.class, () -> created);
            VirtualTime clock = created.time();
            infrastructure(registry, "hoplockTestVirtualElectors", ElectorCustomizer.class,
                    () -> (ElectorCustomizer) (election, builder) -> builder.timeSource(clock).scheduler(clock)
                            .ioExecutor(Runnable::run).eventExecutor(Runnable::run));
            infrastructure(registry, "hoplockTestVirtualLocks", LocksCustomizer.class,
                    () -> (LocksCustomizer) builder -> builder.timeSource(clock).scheduler(clock)
                            .ioExecutor(Runnable::run).eventExecutor(Runnable::run));
            infrastructure(registry, "hoplockTestVirtualOwnership", OwnershipGroupCustomizer.class,
                    () -> (OwnershipGroupCustomizer) (group, builder) -> builder.timeSource(clock).scheduler(clock)
                            .ioExecutor(Runnable::run).eventExecutor(Runnable::run));
        }
        @Nullable VirtualTimeDriver clock = driver;
        RootBeanDefinition control = new RootBeanDefinition(HoplockTestControl.class,
                () -> new HoplockTestControl(timeout, clock));
        if (clock != null) {
            control.setDependsOn(VIRTUAL_TIME_DRIVER);
        }
        registry.registerBeanDefinition("hoplockTestControl", control);
    }

    /**
     * Registers an infrastructure bean; with virtual time it depends on the driver, so that the driver outlives every
     * engine built with it when the context closes (the engines leave on its clock).
     */
    private static <T> void infrastructure(BeanDefinitionRegistry registry, String name, Class<T> type,
            Supplier<T> supplier) {
        RootBeanDefinition definition = new RootBeanDefinition(type, supplier);
        definition.setRole(BeanDefinition.ROLE_INFRASTRUCTURE);
        if (!name.equals(VIRTUAL_TIME_DRIVER)) {
            definition.setDependsOn(VIRTUAL_TIME_DRIVER);
        }
        registry.registerBeanDefinition(name, definition);
    }

    @Override
    public boolean equals(@Nullable Object other) {
        return other instanceof HoplockContextCustomizer that && ttl.equals(that.ttl)
                && timeoutSeconds == that.timeoutSeconds && time == that.time;
    }

    @Override
    public int hashCode() {
        return Objects.hash(ttl, timeoutSeconds, time);
    }
}
