package dev.hoplock.spring.autoconfigure;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.lock.Locks;
import dev.hoplock.spring.actuate.HoplockEndpoint;
import dev.hoplock.spring.leader.HoplockElections;
import dev.hoplock.spring.ownership.HoplockOwnership;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.time.Duration;

/**
 * The {@code hoplock} actuator endpoint, when the actuator is on the classpath and the endpoint is available
 * (exposed and its access not {@code none}). Its step-down write operation follows Boot's endpoint access control:
 * read-only by default, {@code management.endpoint.hoplock.access=unrestricted} allows it. It reads the store's records
 * ({@code store:records}) through the application's one {@link Backend} bean, when there is exactly one.
 */
@AutoConfiguration(after = {HoplockAutoConfiguration.class, HoplockOwnershipAutoConfiguration.class,
        HoplockLocksAutoConfiguration.class})
@ConditionalOnClass(name = {"org.springframework.boot.actuate.endpoint.annotation.Endpoint",
        "org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint"})
@ConditionalOnBean(HoplockElections.class)
public final class HoplockEndpointAutoConfiguration {

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnAvailableEndpoint(endpoint = HoplockEndpoint.class)
    static class Available {

        @Bean
        @ConditionalOnMissingBean
        HoplockEndpoint hoplockEndpoint(HoplockElections elections, ObjectProvider<HoplockOwnership> ownership,
                ObjectProvider<Locks> locks, ObjectProvider<Backend> backend, ObjectProvider<LockProperties> lockProperties) {
            Duration lockTimeout = lockProperties.getIfAvailable(LockProperties::new).getRequestTimeout();
            return new HoplockEndpoint(elections, ownership.getIfAvailable(), locks.getIfAvailable(),
                    backend.getIfUnique(), lockTimeout);
        }
    }
}
