package dev.hoplock.spring.jdbc;

import dev.hoplock.core.election.Elector;
import dev.hoplock.spring.leader.HoplockElections;
import dev.hoplock.spring.support.Databases;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.JdbcTemplate;

import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The harness the {@code @Fenced} application-context tests of this package share: a context runner with Boot's JDBC,
 * transaction and AOP auto-configuration plus the hoplock auto-configurations a test names, the properties that put
 * the leases and the fence in JDBC tables (created at start) next to the application's table, the fence rows of a
 * resource, waiting for the default elector to lead, and the part of the fixture beans that writes the application's
 * table.
 */
final class FencedContexts {

    /** The application's table, as the tests' fixture beans read it. */
    static final String INVOICES_PROPERTY = "test.invoices";

    private static final Class<?>[] BOOT = {DataSourceAutoConfiguration.class,
            DataSourceTransactionManagerAutoConfiguration.class, TransactionAutoConfiguration.class,
            JdbcTemplateAutoConfiguration.class, AopAutoConfiguration.class};

    private FencedContexts() {
    }

    /** Boot's JDBC, transaction and AOP auto-configuration and the given hoplock auto-configurations. */
    static ApplicationContextRunner runner(Class<?>... hoplock) {
        Class<?>[] all = Stream.concat(Stream.of(BOOT), Stream.of(hoplock)).toArray(Class<?>[]::new);
        return new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(all));
    }

    /** Leases in {@code leases}, the fence in {@code fences} (both created at start), the application's table. */
    static String[] jdbcLeasesAndFence(String leases, String fences, String invoices) {
        return new String[] {"hoplock.backend=jdbc", "hoplock.jdbc.table=" + leases,
                "hoplock.jdbc.initialize-schema=always", "hoplock.fence.table=" + fences,
                "hoplock.fence.initialize-schema=always", INVOICES_PROPERTY + "=" + invoices};
    }

    /** The tokens the fence table {@code fences} records for {@code resource}. */
    static List<String> storedTokens(Databases database, String fences, String resource) {
        return database.column("SELECT token FROM " + fences + " WHERE resource = ?", resource);
    }

    /** The started context's default elector, once it leads (within {@code wait}). */
    static Elector awaitLeader(AssertableApplicationContext context, Duration wait) {
        assertThat(context).hasNotFailed();
        Elector elector = context.getBean(HoplockElections.class).getDefault();
        await().atMost(wait).until(elector::isLeader);
        return elector;
    }

    /** The fixture beans' common part: rows of the application's table (the one {@value #INVOICES_PROPERTY} names). */
    abstract static class InvoiceTable {

        private final JdbcTemplate jdbc;
        private final String table;

        InvoiceTable(JdbcTemplate jdbc, Environment environment) {
            this.jdbc = jdbc;
            this.table = environment.getRequiredProperty(INVOICES_PROPERTY);
        }

        /** Inserts the row {@code id} in the caller's transaction. */
        void insert(String id) {
            jdbc.update("INSERT INTO " + table + " (id) VALUES (?)", id);
        }
    }
}
