package dev.hoplock.cli;

import dev.hoplock.spring.autoconfigure.HoplockAutoConfiguration;
import dev.hoplock.spring.leader.HoplockElections;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.util.Map;

/**
 * The Spring context of {@code hoplock-cli}: the starter's store configuration ({@link HoplockAutoConfiguration}, after
 * Boot's DataSource for {@code hoplock.backend=jdbc}) and nothing that takes part: no elector (an empty
 * {@link HoplockElections} replaces the starter's, so no election is campaigned for), no named locks, no ownership
 * group, no endpoint. The context is lazy ({@code spring.main.lazy-initialization}), so only what the store needs is
 * built (a DataSource only for the JDBC store).
 */
@Configuration(proxyBeanMethods = false)
@ImportAutoConfiguration({DataSourceAutoConfiguration.class, HoplockAutoConfiguration.class})
class CliConfiguration {

    /** No elections: the tool reads and releases records, it never campaigns. */
    @Bean(destroyMethod = "close")
    HoplockElections hoplockElections() {
        return new HoplockElections(Map.of(), null);
    }
}
