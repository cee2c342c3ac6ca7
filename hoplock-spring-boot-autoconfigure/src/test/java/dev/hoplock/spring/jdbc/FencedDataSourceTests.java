package dev.hoplock.spring.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import dev.hoplock.core.election.Elector;
import dev.hoplock.core.fencing.Fence;
import dev.hoplock.core.fencing.FencingException;
import dev.hoplock.core.fencing.StaleTokenException;
import dev.hoplock.spring.fencing.Fenced;
import dev.hoplock.spring.leader.LeaderOnly;
import dev.hoplock.spring.autoconfigure.HoplockAutoConfiguration;
import dev.hoplock.spring.autoconfigure.HoplockFencingAutoConfiguration;
import dev.hoplock.spring.autoconfigure.HoplockLeaderOnlyAutoConfiguration;
import dev.hoplock.spring.autoconfigure.HoplockLocksAutoConfiguration;
import dev.hoplock.spring.support.Databases;
import dev.hoplock.spring.support.Failures;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.TransactionStatus;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionTemplate;

import javax.sql.DataSource;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Issue 19, defect 5: the fence's DataSource and the transaction manager's. The pools are HikariCP with
 * {@code autoCommit=false}, the configuration in which a check on a connection outside the method's transaction is
 * not refused by the autocommit test: the pool hands out a non-autocommit connection, nobody commits it, the pool
 * rolls it back when it returns, and the fenced writes (on the transaction manager's DataSource) commit unchecked.
 * Two pools over the one PostgreSQL database: {@code appDataSource} (primary: Boot's transaction manager and
 * JdbcTemplate use it) and {@code fenceDataSource}.
 */
class FencedDataSourceTests {

    private static final String RESOURCE = "invoices";
    private static final Databases DATABASE = Databases.POSTGRESQL;

    private final String leases = Databases.uniqueTable("lease");
    private final String fences = Databases.uniqueTable("fence");
    private final String invoices = Databases.uniqueTable("invoice");

    private final ApplicationContextRunner runner = FencedContexts.runner(HoplockAutoConfiguration.class,
                    HoplockLeaderOnlyAutoConfiguration.class, HoplockLocksAutoConfiguration.class,
                    HoplockFencingAutoConfiguration.class)
            .withPropertyValues(FencedContexts.jdbcLeasesAndFence(leases, fences, invoices))
            .withPropertyValues("hoplock.ttl=10s", "hoplock.owner=leader");

    private ApplicationContextRunner twoPools() {
        DATABASE.execute("CREATE TABLE " + invoices + " (id VARCHAR(64) NOT NULL PRIMARY KEY)");
        return runner.withUserConfiguration(TwoPools.class);
    }

    @AfterEach
    void dropTables() {
        DATABASE.dropTables(leases, fences, invoices);
    }

    // ------------------------------------------------------------------ start-up: the method's transaction manager

    @Test
    void aFencedMethodWhoseTransactionManagerRunsOnAnotherDataSourceFailsTheStart() {
        twoPools().withPropertyValues("hoplock.fence.data-source=fenceDataSource")
                .withBean("invoices", Invoices.class).run(context -> {
                    assertThat(context).as("the fence check would run outside the method's transaction: the start"
                            + " must fail rather than fence nothing").hasFailed();
                    FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("@Fenced cannot work on bean 'invoices'",
                            "Invoices.issue(..) (@Fenced(\"invoices\"))", "transaction manager 'transactionManager'",
                            "DataSource 'appDataSource'", "the fence checks tokens in DataSource 'fenceDataSource'",
                            "not in the method's transaction");
                    assertThat(analysis.getAction()).contains("hoplock.fence.data-source=appDataSource",
                            "@Transactional(\"<a transaction manager of fenceDataSource>\")");
                });
    }

    @Test
    void aFencedMethodWhoseTransactionManagerRunsOnNoDataSourceThatCanBeToldFailsTheStart() {
        DATABASE.execute("CREATE TABLE " + invoices + " (id VARCHAR(64) NOT NULL PRIMARY KEY)");
        runner.withPropertyValues(DATABASE.dataSourceProperties())
                .withUserConfiguration(DelegatingTransactionManager.class).withBean("invoices", Invoices.class)
                .run(context -> {
                    FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("@Fenced cannot work on bean 'invoices'",
                            "transaction manager 'transactionManager' (Delegating)",
                            "runs them on no DataSource that can be told", "DataSource 'dataSource'");
                    assertThat(analysis.getAction()).contains("JdbcTransactionManager",
                            "dev.hoplock.core.fencing.Fence bean");
                });
    }

    @Test
    void aFencedMethodWhoseQualifiedTransactionManagerRunsOnTheFencesDataSourceStartsAndCommitsItsToken() {
        twoPools().withPropertyValues("hoplock.fence.data-source=fenceDataSource")
                .withUserConfiguration(FenceTransactionManager.class, QualifiedInvoiceBeans.class).run(context -> {
                    long generation = awaitLeader(context).currentLease().orElseThrow().generation();
                    context.getBean(QualifiedInvoices.class).issue("q-1");
                    assertThat(DATABASE.column("SELECT id FROM " + invoices)).containsExactly("q-1");
                    assertThat(storedToken()).containsExactly(String.valueOf(generation));
                });
    }

    // ------------------------------------------------------------------ call time: the fence bean used directly

    @Test
    void aCheckInATransactionOfAnotherDataSourceIsRefusedSoAStaleWriteDoesNotCommit() {
        twoPools().withPropertyValues("hoplock.fence.data-source=fenceDataSource").run(context -> {
            assertThat(context).hasNotFailed();
            Fence fence = context.getBean(Fence.class);
            JdbcTemplate jdbc = context.getBean(JdbcTemplate.class);
            // The transaction manager of appDataSource: the fence's DataSource has no transaction in it.
            TransactionTemplate appTransaction = new TransactionTemplate(
                    context.getBean(PlatformTransactionManager.class));

            // A newer holder (token 6) writes, then a stale one (token 5), each "fenced" in such a transaction.
            Throwable newer = catchThrowable(() -> appTransaction.executeWithoutResult(status -> {
                fence.check(RESOURCE, 6);
                jdbc.update("INSERT INTO " + invoices + " (id) VALUES (?)", "newer");
            }));
            Throwable stale = catchThrowable(() -> appTransaction.executeWithoutResult(status -> {
                fence.check(RESOURCE, 5);
                jdbc.update("INSERT INTO " + invoices + " (id) VALUES (?)", "stale");
            }));

            assertThat(DATABASE.column("SELECT id FROM " + invoices)).as("the stale holder's write must not"
                    + " commit (today the newer token's check rolled back with its pool connection, and token 5"
                    + " passed)").doesNotContain("stale");
            assertThat(newer).isInstanceOf(FencingException.class);
            assertThat(stale).isInstanceOf(FencingException.class).hasMessageContaining("the fence check for"
                    + " 'invoices' found no Spring transaction of its DataSource", "another resource",
                    "hoplock.fence.data-source");
            assertThat(storedToken()).isEmpty();
        });
    }

    // ------------------------------------------------------------------ a correctly wired pool without autocommit

    @Test
    void withOnePoolWithoutAutocommitTheLeadersWriteCommitsAndAStaleOneIsRefused() {
        DATABASE.execute("CREATE TABLE " + invoices + " (id VARCHAR(64) NOT NULL PRIMARY KEY)");
        runner.withPropertyValues(DATABASE.dataSourceProperties())
                .withPropertyValues("spring.datasource.hikari.auto-commit=false")
                .withBean("invoices", Invoices.class).run(context -> {
                    long generation = awaitLeader(context).currentLease().orElseThrow().generation();
                    assertThat(((HikariDataSource) context.getBean(DataSource.class)).isAutoCommit()).isFalse();
                    context.getBean(Invoices.class).issue("a-1");
                    assertThat(storedToken()).containsExactly(String.valueOf(generation));

                    Fence fence = context.getBean(Fence.class);
                    new TransactionTemplate(context.getBean(PlatformTransactionManager.class))
                            .executeWithoutResult(status -> fence.check(RESOURCE, generation + 1));
                    assertThatThrownBy(() -> context.getBean(Invoices.class).issue("a-2"))
                            .isInstanceOf(StaleTokenException.class);
                    assertThat(DATABASE.column("SELECT id FROM " + invoices)).containsExactly("a-1");
                    assertThat(storedToken()).containsExactly(String.valueOf(generation + 1));
                });
    }

    // ------------------------------------------------------------------ helpers and beans

    private List<String> storedToken() {
        return FencedContexts.storedTokens(DATABASE, fences, RESOURCE);
    }

    private static Elector awaitLeader(AssertableApplicationContext context) {
        return FencedContexts.awaitLeader(context, Duration.ofSeconds(20));
    }

    private static HikariDataSource pool(String name) {
        HikariDataSource pool = new HikariDataSource();
        pool.setPoolName(name);
        pool.setJdbcUrl(DATABASE.url());
        pool.setUsername(DATABASE.user());
        pool.setPassword("");
        pool.setMaximumPoolSize(3);
        pool.setAutoCommit(false);
        return pool;
    }

    /** Two pools without autocommit over one database; Boot's transaction manager and JdbcTemplate use the primary. */
    @Configuration(proxyBeanMethods = false)
    static class TwoPools {

        @Bean(destroyMethod = "close")
        @Primary
        HikariDataSource appDataSource() {
            return pool("app");
        }

        @Bean(destroyMethod = "close")
        HikariDataSource fenceDataSource() {
            return pool("fence");
        }
    }

    /** A second transaction manager, over the fence's DataSource. */
    @Configuration(proxyBeanMethods = false)
    static class FenceTransactionManager {

        @Bean
        JdbcTransactionManager fenceTransactionManager(@Qualifier("fenceDataSource") DataSource fenceDataSource) {
            return new JdbcTransactionManager(fenceDataSource);
        }

        @Bean
        @Primary
        JdbcTransactionManager transactionManager(@Qualifier("appDataSource") DataSource appDataSource) {
            return new JdbcTransactionManager(appDataSource);
        }
    }

    /**
     * A transaction manager that says nothing of its resource (as a JTA or chained manager): it delegates to one over
     * the application's DataSource, but nothing shows which connection its transactions use.
     */
    @Configuration(proxyBeanMethods = false)
    static class DelegatingTransactionManager {

        @Bean
        PlatformTransactionManager transactionManager(DataSource dataSource) {
            return new Delegating(new JdbcTransactionManager(dataSource));
        }
    }

    record Delegating(PlatformTransactionManager target) implements PlatformTransactionManager {
        @Override
        public TransactionStatus getTransaction(@Nullable TransactionDefinition definition) {
            return target.getTransaction(definition);
        }

        @Override
        public void commit(TransactionStatus status) {
            target.commit(status);
        }

        @Override
        public void rollback(TransactionStatus status) {
            target.rollback(status);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class QualifiedInvoiceBeans {

        @Bean
        QualifiedInvoices qualifiedInvoices(@Qualifier("fenceDataSource") DataSource fenceDataSource,
                Environment environment) {
            return new QualifiedInvoices(new JdbcTemplate(fenceDataSource), environment);
        }
    }

    /** Fenced writes in the default transaction manager's transaction. */
    public static class Invoices extends FencedContexts.InvoiceTable {

        Invoices(JdbcTemplate jdbc, Environment environment) {
            super(jdbc, environment);
        }

        @LeaderOnly
        @Fenced(RESOURCE)
        @Transactional
        public void issue(String id) {
            insert(id);
        }
    }

    /** Fenced writes on the fence's DataSource, in the transaction of its own transaction manager. */
    public static class QualifiedInvoices extends FencedContexts.InvoiceTable {

        QualifiedInvoices(JdbcTemplate jdbc, Environment environment) {
            super(jdbc, environment);
        }

        @LeaderOnly
        @Fenced(RESOURCE)
        @Transactional("fenceTransactionManager")
        public void issue(String id) {
            insert(id);
        }
    }
}
