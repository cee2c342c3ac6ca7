package dev.hoplock.spring.autoconfigure;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Bean;

/**
 * Active only with {@code hoplock.enabled=false}: says once, at start-up, that nothing is elected and that
 * {@code @LeaderOnly} and {@code @WithLock} methods therefore run on every instance, so that a switch meant for tests is never silent in
 * production.
 */
@AutoConfiguration
@ConditionalOnBooleanProperty(name = "hoplock.enabled", havingValue = false)
public final class HoplockDisabledAutoConfiguration {

    private static final Logger log = LoggerFactory.getLogger(HoplockDisabledAutoConfiguration.class);

    @Bean
    SmartInitializingSingleton hoplockDisabledNotice() {
        return () -> log.warn("hoplock: disabled (hoplock.enabled=false): no election runs, and @LeaderOnly and @WithLock methods"
                + " are not gated, so they run on every instance. Meant for tests; in production remove the setting.");
    }
}
