package dev.hoplock.spring.actuate;

import dev.hoplock.spring.HoplockElections;
import dev.hoplock.spring.autoconfigure.HoplockAutoConfiguration;
import dev.hoplock.spring.autoconfigure.StoreVerification;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code hoplock} health contributor: a composite with one {@link ElectionHealthIndicator} per election. Active
 * when {@code spring-boot-health} is on the classpath, unless {@code management.health.hoplock.enabled=false}.
 */
@AutoConfiguration(after = HoplockAutoConfiguration.class,
        beforeName = "org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration")
@ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthContributor")
@ConditionalOnBean(HoplockElections.class)
public final class HoplockHealthAutoConfiguration {

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnEnabledHealthIndicator("hoplock")
    static class Contributor {

        @Bean
        @ConditionalOnMissingBean(name = "hoplockHealthContributor")
        HealthContributor hoplockHealthContributor(HoplockElections elections,
                ObjectProvider<StoreVerification> verification) {
            Map<String, ElectionHealthIndicator> indicators = new LinkedHashMap<>();
            elections.asMap().forEach((name, elector) -> indicators.put(name,
                    new ElectionHealthIndicator(name, elector, elections, verification.getIfAvailable())));
            return CompositeHealthContributor.fromMap(indicators);
        }
    }
}
