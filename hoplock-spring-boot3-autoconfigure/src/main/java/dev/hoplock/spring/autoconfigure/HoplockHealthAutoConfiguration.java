package dev.hoplock.spring.autoconfigure;

import dev.hoplock.spring.actuate.ElectionHealthIndicator;
import dev.hoplock.spring.leader.HoplockElections;
import dev.hoplock.spring.leader.StoreWriteWatch;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import dev.hoplock.spring.actuate.OwnershipHealthIndicator;
import dev.hoplock.spring.ownership.HoplockOwnership;
import org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.CompositeHealthContributor;
import org.springframework.boot.actuate.health.HealthContributor;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code hoplock} health contributor (Spring Boot 3 types): a composite with one {@link ElectionHealthIndicator}
 * per election. Active when {@code spring-boot-actuator} is on the classpath, unless
 * {@code management.health.hoplock.enabled=false}.
 *
 * <p>It joins the application's aggregate health ({@code /actuator/health}) and no health group: not the liveness
 * group (who leads is not whether this process is alive) and not the readiness group (Boot's probe groups contain
 * only their availability states unless the application includes more). A store outage is reported as UNKNOWN,
 * which does not lower the aggregate, unless {@code hoplock.health.down-on-store-outage=true}.
 */
@AutoConfiguration(after = HoplockAutoConfiguration.class,
        beforeName = "org.springframework.boot.actuate.autoconfigure.health.HealthContributorAutoConfiguration")
@ConditionalOnClass(name = "org.springframework.boot.actuate.health.HealthContributor")
@ConditionalOnBean(HoplockElections.class)
public final class HoplockHealthAutoConfiguration {

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnEnabledHealthIndicator("hoplock")
    static class Contributor {

        @Bean
        @ConditionalOnMissingBean(name = "hoplockHealthContributor")
        HealthContributor hoplockHealthContributor(HoplockElections elections,
                ObjectProvider<StoreWriteWatch> writes, ObjectProvider<HoplockOwnership> ownership,
                Environment environment) {
            boolean downOnStoreOutage = Binder.get(environment).bind("hoplock.health.down-on-store-outage",
                    Boolean.class).orElse(false);
            Map<String, HealthIndicator> indicators = new LinkedHashMap<>();
            elections.asMap().forEach((name, elector) -> indicators.put(name, new ElectionHealthIndicator(name,
                    elector, elections, writes.getIfAvailable(), downOnStoreOutage)));
            HoplockOwnership group = ownership.getIfAvailable();
            if (group != null) {
                indicators.put("ownership-" + group.name().replace('/', '-'), new OwnershipHealthIndicator(group));
            }
            return CompositeHealthContributor.fromMap(indicators);
        }
    }
}
