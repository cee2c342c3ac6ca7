package dev.hoplock.spring.autoconfigure;

import dev.hoplock.core.lock.Locks;
import dev.hoplock.spring.leader.BackendDecorator;
import dev.hoplock.spring.leader.HoplockElections;
import dev.hoplock.spring.observation.LeaseObservationConvention;
import dev.hoplock.spring.observation.LeaseObservations;
import dev.hoplock.spring.observation.MembershipChangeObservationConvention;
import dev.hoplock.spring.observation.MembershipObservations;
import dev.hoplock.spring.observation.ObservedBackend;
import dev.hoplock.spring.observation.StoreRequestObservationConvention;
import dev.hoplock.spring.ownership.HoplockOwnership;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

import java.util.function.Supplier;

/**
 * Micrometer Observations (traces) of hoplock, when the application has an {@link ObservationRegistry} bean (Spring
 * Boot's actuator provides one) and {@code hoplock.observations.enabled} is not false: {@link ObservedBackend} as a
 * {@link BackendDecorator} on the store of every election, of the named locks and of the ownership group,
 * {@link LeaseObservations} for the terms of the elections, the locks and the ownership member's liveness lease,
 * {@link MembershipObservations} for the ownership group. An application's {@link StoreRequestObservationConvention},
 * {@link LeaseObservationConvention} or {@link MembershipChangeObservationConvention} bean replaces the default
 * convention of its observations; the gates' conventions are global ones, which Spring Boot registers on the
 * registry. The {@code @LeaderOnly} and {@code @WithLock} advisors look the registry up at their first call
 * ({@link #gateRegistry}). See docs/spring-boot.md, "Traces".
 */
@AutoConfiguration(after = {HoplockAutoConfiguration.class, HoplockLocksAutoConfiguration.class,
        HoplockOwnershipAutoConfiguration.class}, afterName = {
        "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration",
        // Spring Boot 3: the same auto-configuration in spring-boot-actuator-autoconfigure.
        "org.springframework.boot.actuate.autoconfigure.observation.ObservationAutoConfiguration"})
@ConditionalOnClass(ObservationRegistry.class)
@ConditionalOnBooleanProperty(name = "hoplock.observations.enabled", matchIfMissing = true)
@ConditionalOnBean({ObservationRegistry.class, HoplockElections.class})
public final class HoplockObservationsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(name = "hoplockObservedBackendDecorator")
    BackendDecorator hoplockObservedBackendDecorator(ObjectProvider<ObservationRegistry> registry,
            ObjectProvider<StoreRequestObservationConvention> convention) {
        return BackendDecorator.of((primitive, name, backend) -> new ObservedBackend(backend, registry.getObject(),
                primitive, name, convention.getIfAvailable()));
    }

    @Bean
    @ConditionalOnMissingBean
    LeaseObservations hoplockLeaseObservations(ObservationRegistry registry, HoplockElections elections,
            ObjectProvider<Locks> locks, ObjectProvider<HoplockOwnership> ownership,
            ObjectProvider<LeaseObservationConvention> convention) {
        return new LeaseObservations(registry, elections, locks.getIfAvailable(), ownership.getIfAvailable(),
                convention.getIfAvailable());
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(HoplockOwnership.class)
    MembershipObservations hoplockMembershipObservations(ObservationRegistry registry, HoplockOwnership ownership,
            ObjectProvider<MembershipChangeObservationConvention> convention) {
        return new MembershipObservations(registry, ownership, convention.getIfAvailable());
    }

    /**
     * The registry the gates observe their calls with, looked up at their first call: none when
     * {@code hoplock.observations.enabled=false} or the application has no {@link ObservationRegistry}.
     */
    static Supplier<@Nullable ObservationRegistry> gateRegistry(ObjectProvider<ObservationRegistry> registry,
            Environment environment) {
        boolean enabled = Binder.get(environment).bind("hoplock.observations.enabled", Boolean.class).orElse(true);
        return enabled ? registry::getIfAvailable : () -> null;
    }
}
