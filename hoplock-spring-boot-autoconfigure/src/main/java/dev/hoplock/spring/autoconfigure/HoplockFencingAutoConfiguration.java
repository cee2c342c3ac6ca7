package dev.hoplock.spring.autoconfigure;

import dev.hoplock.core.fencing.Fence;
import dev.hoplock.jdbc.JdbcSchema;
import dev.hoplock.spring.HoplockConfigurationException;
import dev.hoplock.spring.leader.LeaderOnlyAttributeSource;
import dev.hoplock.spring.lock.WithLockAttributeSource;
import dev.hoplock.spring.fencing.FencedAdvisor;
import dev.hoplock.spring.fencing.FirstTokenSource;
import dev.hoplock.spring.fencing.WithLockTokenSource;
import dev.hoplock.spring.fencing.FencedMethodValidator;
import dev.hoplock.spring.fencing.FencingTokenSource;
import dev.hoplock.spring.fencing.LeaderOnlyTokenSource;
import dev.hoplock.spring.fencing.TransactionalJdbcFence;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;

import javax.sql.DataSource;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;

/**
 * {@code @Fenced}: the advisor that checks a method's fencing token inside its transaction, the token source
 * ({@code @WithLock}'s lock token inside a {@code @WithLock} call, else {@code @LeaderOnly}'s lease generation), the start-up validator, and, with {@code hoplock-jdbc} and Spring JDBC, the
 * {@link Fence} bean: a {@link TransactionalJdbcFence} over {@code hoplock.fence.table} in the application's
 * DataSource (or the one {@code hoplock.fence.data-source} names), whose table is created at start-up when
 * {@code hoplock.fence.initialize-schema} asks for it (default: only in an embedded database), and whose table must
 * exist at start-up when any bean has {@code @Fenced} methods. The validator also fails the start when a
 * {@code @Fenced} method's transaction manager does not run its transactions on that DataSource (the check would run
 * outside the method's transaction), naming the bean, the transaction manager, both DataSources and the fix.
 *
 * <p>Active when Spring's transaction support is on the classpath. Ordered after hoplock's {@code @LeaderOnly}
 * configuration and after Boot's DataSource, DataSource-transaction-manager and transaction auto-configurations (by
 * name, Boot 4's and Boot 3's classes): the fence advisor's bean is therefore registered after the
 * {@code @Transactional} advisor, and with the same (lowest) order Spring places it inside the transaction (see
 * {@link FencedAdvisor}). The {@link Fence} bean is independent of {@code hoplock.backend}: leases may live in S3 while
 * the fenced writes go to the application's database.
 */
@AutoConfiguration(after = {HoplockAutoConfiguration.class, HoplockLeaderOnlyAutoConfiguration.class,
        HoplockLocksAutoConfiguration.class}, afterName = {
        "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
        "org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration",
        "org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration",
        "org.springframework.boot.autoconfigure.jdbc.DataSourceTransactionManagerAutoConfiguration",
        "org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration",
        "org.springframework.boot.autoconfigure.transaction.TransactionAutoConfiguration"})
@ConditionalOnBooleanProperty(name = "hoplock.enabled", matchIfMissing = true)
@ConditionalOnClass(name = "org.springframework.transaction.support.TransactionSynchronizationManager")
public final class HoplockFencingAutoConfiguration {

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    @ConditionalOnMissingBean
    static FencingTokenSource hoplockFencingTokenSource(LeaderOnlyAttributeSource gates,
            ObjectProvider<WithLockAttributeSource> locks) {
        WithLockAttributeSource withLock = locks.getIfAvailable();
        if (withLock == null) {
            return new LeaderOnlyTokenSource(gates);
        }
        // A @WithLock call's lock token first: it is the innermost gate when a @LeaderOnly call encloses it.
        return new FirstTokenSource(List.of(new WithLockTokenSource(withLock), new LeaderOnlyTokenSource(gates)));
    }

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    @ConditionalOnMissingBean
    static FencedAdvisor hoplockFencedAdvisor(ObjectProvider<Fence> fence, FencingTokenSource tokens) {
        return new FencedAdvisor(fence::getObject, tokens);
    }

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    @ConditionalOnMissingBean
    static FencedMethodValidator hoplockFencedMethodValidator(FencingTokenSource tokens, ObjectProvider<Fence> fence) {
        return new FencedMethodValidator(tokens, fence);
    }

    /** The JDBC fence in the application's database. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = {"dev.hoplock.jdbc.JdbcFence", "org.springframework.jdbc.datasource.DataSourceUtils"})
    @ConditionalOnBean(DataSource.class)
    static class Jdbc {

        @Bean
        @ConditionalOnMissingBean(Fence.class)
        @DependsOnDatabaseInitialization
        TransactionalJdbcFence hoplockFence(HoplockProperties properties, ListableBeanFactory beans) {
            HoplockProperties.Fencing settings = properties.getFence();
            DataSources.Chosen chosen = DataSources.choose(beans, settings.getDataSource(),
                    "hoplock.fence.data-source", "hoplock's fence for @Fenced methods needs a DataSource");
            TransactionalJdbcFence fence;
            try {
                fence = new TransactionalJdbcFence(chosen.dataSource(), settings.getTable());
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
}
