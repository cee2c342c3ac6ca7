package dev.hoplock.spring.autoconfigure;

import dev.hoplock.core.lock.Locks;
import dev.hoplock.spring.leader.HoplockMeterBinder;
import dev.hoplock.spring.lock.LockCallMeters;
import dev.hoplock.spring.leader.MeteredBackend;
import dev.hoplock.spring.leader.SkippedCallCounter;
import dev.hoplock.spring.leader.BackendDecorator;
import dev.hoplock.spring.leader.HoplockElections;
import dev.hoplock.spring.leader.LeaderOnlyAttributeSource;
import dev.hoplock.spring.lock.WithLockAttributeSource;
import dev.hoplock.spring.ownership.HoplockOwnership;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Micrometer meters for every election ({@link HoplockMeterBinder}), the {@code hoplock.leader-only.skipped} counter
 * ({@link SkippedCallCounter}), the {@code @WithLock} meters ({@link LockCallMeters}) and the {@code hoplock.backend.requests} timer ({@link MeteredBackend}, applied as a
 * {@link BackendDecorator} to the store of every election, of the named locks and of the ownership group), each
 * per-method meter registered at start with 0 ({@code MetersAtStart}). Active when Micrometer is on the classpath and the application has a
 * {@link MeterRegistry}.
 */
@AutoConfiguration(after = {HoplockAutoConfiguration.class, HoplockLocksAutoConfiguration.class}, afterName = {
        "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration",
        // Spring Boot 3: the same auto-configurations in spring-boot-actuator-autoconfigure.
        "org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration",
        "org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration",
        "org.springframework.boot.actuate.autoconfigure.metrics.export.simple.SimpleMetricsExportAutoConfiguration"})
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean({MeterRegistry.class, HoplockElections.class})
public final class HoplockMetricsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    HoplockMeterBinder hoplockMeterBinder(HoplockElections elections) {
        return new HoplockMeterBinder(elections);
    }

    @Bean
    @ConditionalOnMissingBean
    SkippedCallCounter hoplockSkippedCallCounter(MeterRegistry registry) {
        return new SkippedCallCounter(registry);
    }

    @Bean
    @ConditionalOnMissingBean
    LockCallMeters hoplockLockCallMeters(MeterRegistry registry, ObjectProvider<Locks> locks) {
        return new LockCallMeters(registry, locks.getIfAvailable());
    }

    @Bean
    @ConditionalOnMissingBean(name = "hoplockMetersAtStart")
    static SmartInitializingSingleton hoplockMetersAtStart(ObjectProvider<LockCallMeters> lockMeters,
            ObjectProvider<WithLockAttributeSource> lockGates, ObjectProvider<SkippedCallCounter> skipped,
            ObjectProvider<LeaderOnlyAttributeSource> leaderGates, ObjectProvider<HoplockElections> elections,
            ObjectProvider<HoplockOwnership> ownership) {
        return new MetersAtStart(lockMeters, lockGates, skipped, leaderGates, elections, ownership);
    }

    @Bean
    @ConditionalOnMissingBean(name = "hoplockMeteredBackendDecorator")
    BackendDecorator hoplockMeteredBackendDecorator(ObjectProvider<MeterRegistry> registry) {
        return BackendDecorator.of(
                (primitive, name, backend) -> new MeteredBackend(backend, registry.getObject(), primitive, name));
    }
}
