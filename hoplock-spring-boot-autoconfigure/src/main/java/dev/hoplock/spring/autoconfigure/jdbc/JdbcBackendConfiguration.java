package dev.hoplock.spring.autoconfigure.jdbc;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.jdbc.JdbcBackend;
import dev.hoplock.spring.autoconfigure.BackendType;
import dev.hoplock.spring.autoconfigure.ConditionalOnHoplockBackend;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The JDBC store, only when {@code dev.hoplock:hoplock-jdbc} is on the classpath: nothing here is loaded otherwise.
 *
 * <ul>
 *   <li>{@code hoplockBackend}: a {@link JdbcBackend} over {@code hoplock.jdbc.table} in the application's
 *       DataSource (or the one {@code hoplock.jdbc.data-source} names) when {@code hoplock.backend=jdbc} and the
 *       application defines no {@link Backend}. Building it creates the table if {@code hoplock.jdbc.initialize-schema}
 *       asks for it and checks that it exists, so a missing table fails the start naming the table and the DDL file
 *       for the database found ({@link JdbcBackends}). It waits for Boot's database initialisers (Flyway, Liquibase,
 *       {@code spring.sql.init}), so a table created by a migration is there when it is checked.</li>
 * </ul>
 * The settings are {@link JdbcProperties}, bound only when the store module is present. Imported by
 * {@code HoplockAutoConfiguration}, not an auto-configuration itself.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(name = "dev.hoplock.jdbc.JdbcBackend")
@EnableConfigurationProperties(JdbcProperties.class)
public class JdbcBackendConfiguration {

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnMissingBean(Backend.class)
    @ConditionalOnHoplockBackend(BackendType.JDBC)
    static class Store {

        @Bean
        @DependsOnDatabaseInitialization
        JdbcBackend hoplockBackend(JdbcProperties settings, ListableBeanFactory beans) {
            DataSources.Chosen chosen = DataSources.choose(beans, settings.getDataSource(),
                    "hoplock.jdbc.data-source", "hoplock.backend is jdbc");
            return JdbcBackends.create(settings, chosen);
        }
    }
}
