package dev.hoplock.spring.autoconfigure;

import dev.hoplock.spring.actuate.HoplockEndpoint;
import dev.hoplock.spring.actuate.HoplockStepDownEndpoint;
import dev.hoplock.spring.HoplockElections;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The {@code hoplock} actuator endpoint, when the actuator is on the classpath and the endpoint is available
 * (exposed and not disabled). Read-only ({@link HoplockEndpoint}) unless
 * {@code hoplock.endpoint.step-down-enabled=true}, which adds the step-down operation
 * ({@link HoplockStepDownEndpoint}).
 */
@AutoConfiguration(after = HoplockAutoConfiguration.class)
@ConditionalOnClass(name = {"org.springframework.boot.actuate.endpoint.annotation.Endpoint",
        "org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint"})
@ConditionalOnBean(HoplockElections.class)
public final class HoplockEndpointAutoConfiguration {

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnAvailableEndpoint(endpoint = HoplockEndpoint.class)
    static class Available {

        @Bean
        @ConditionalOnMissingBean(HoplockEndpoint.class)
        @ConditionalOnBooleanProperty(name = "hoplock.endpoint.step-down-enabled", havingValue = false,
                matchIfMissing = true)
        HoplockEndpoint hoplockEndpoint(HoplockElections elections) {
            return new HoplockEndpoint(elections);
        }

        @Bean
        @ConditionalOnMissingBean(HoplockEndpoint.class)
        @ConditionalOnBooleanProperty(name = "hoplock.endpoint.step-down-enabled")
        HoplockStepDownEndpoint hoplockStepDownEndpoint(HoplockElections elections) {
            return new HoplockStepDownEndpoint(elections);
        }
    }
}
