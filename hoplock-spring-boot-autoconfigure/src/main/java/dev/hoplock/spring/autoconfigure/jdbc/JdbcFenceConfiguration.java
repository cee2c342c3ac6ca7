package dev.hoplock.spring.autoconfigure.jdbc;

import dev.hoplock.core.fencing.Fence;
import dev.hoplock.jdbc.JdbcSchema;
import dev.hoplock.spring.HoplockConfigurationException;
import dev.hoplock.spring.fencing.FencedMethodValidator;
import dev.hoplock.spring.fencing.TransactionalJdbcFence;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import javax.sql.DataSource;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Locale;

/**
 * The {@link Fence} of {@code @Fenced} methods in the application's database, with {@code hoplock-jdbc} and Spring
 * JDBC: a {@link TransactionalJdbcFence} over {@code hoplock.fence.table} in the application's DataSource (or the one
 * {@code hoplock.fence.data-source} names), whose table is created at start-up when
 * {@code hoplock.fence.initialize-schema} asks for it (default: only in an embedded database), whose check waits for
 * the fence row's lock at most {@code hoplock.fence.lock-timeout} (validated here: at least 1ms), and whose table must
 * exist at start-up when any bean has {@code @Fenced} methods. The settings are {@link JdbcFenceProperties}. Imported
 * by {@code HoplockFencingAutoConfiguration}, not an auto-configuration itself; independent of
 * {@code hoplock.backend}: leases may live in S3 while the fenced writes go to the application's database.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(name = {"dev.hoplock.jdbc.JdbcFence", "org.springframework.jdbc.datasource.DataSourceUtils"})
@ConditionalOnBean(DataSource.class)
@EnableConfigurationProperties(JdbcFenceProperties.class)
public class JdbcFenceConfiguration {

    @Bean
    @ConditionalOnMissingBean(Fence.class)
    @DependsOnDatabaseInitialization
    TransactionalJdbcFence hoplockFence(JdbcFenceProperties settings, ListableBeanFactory beans) {
        DataSources.Chosen chosen = DataSources.choose(beans, settings.getDataSource(),
                "hoplock.fence.data-source", "hoplock's fence for @Fenced methods needs a DataSource");
        Duration lockTimeout = settings.getLockTimeout();
        if (lockTimeout.toMillis() < 1) {
            throw new HoplockConfigurationException("hoplock.fence.lock-timeout", "hoplock.fence.lock-timeout is "
                    + lockTimeout + ": the fence check's wait for the fence row's lock must be bounded by at least"
                    + " 1ms.", "Set hoplock.fence.lock-timeout to a positive duration with a unit, such as 5s (the"
                    + " default); raise it only if fenced transactions of one resource legitimately run longer.");
        }
        TransactionalJdbcFence fence;
        try {
            fence = new TransactionalJdbcFence(chosen.dataSource(), settings.getTable(), lockTimeout);
        } catch (IllegalArgumentException e) {
            throw new HoplockConfigurationException("hoplock.fence.table", "Cannot configure the fence"
                    + " (hoplock.fence.table): " + e.getMessage() + ".", "Fix hoplock.fence.table.", e);
        }
        try {
            JdbcSchema.initializeFenceTable(chosen.dataSource(), fence.table(),
                    JdbcBackends.mode(settings.getInitializeSchema()));
        } catch (SQLException | IllegalStateException e) {
            String state = e instanceof SQLException sql ? " (SQLState " + sql.getSQLState() + ")" : "";
            throw new HoplockConfigurationException("hoplock.fence.initialize-schema", "Creating the fence table "
                    + fence.table() + " in the database of DataSource '" + chosen.name() + "' failed" + state
                    + ", as hoplock.fence.initialize-schema is " + settings.getInitializeSchema().name()
                    .toLowerCase(Locale.ROOT) + ".", "Create it yourself from the DDL in"
                    + " META-INF/hoplock/jdbc/fence-<database>.sql (inside the hoplock-jdbc jar) and set"
                    + " hoplock.fence.initialize-schema=never, or grant the right to create tables.", e);
        }
        return fence;
    }

    /**
     * Once every singleton exists: if any bean has {@code @Fenced} methods, the fence table must exist, or the
     * start fails naming it and the DDL file (rather than the first fenced call).
     */
    @Bean
    static SmartInitializingSingleton hoplockFenceTableCheck(ObjectProvider<FencedMethodValidator> validator,
            ObjectProvider<Fence> fence) {
        return () -> {
            FencedMethodValidator fenced = validator.getIfAvailable();
            if (fenced == null || fenced.fencedBeans().isEmpty()
                    || !(fence.getIfAvailable() instanceof TransactionalJdbcFence jdbc)) {
                return;
            }
            jdbc.missingTable().ifPresent(problem -> {
                throw new HoplockConfigurationException("hoplock.fence.table", problem + " @Fenced methods of "
                        + fenced.fencedBeans() + " need it.", "Create the table with that DDL (your migration"
                        + " tool can run it; JdbcSchema.fenceTableDdl returns it with your table name), or set"
                        + " hoplock.fence.initialize-schema=always to let hoplock create it at start-up.");
            });
        };
    }
}
