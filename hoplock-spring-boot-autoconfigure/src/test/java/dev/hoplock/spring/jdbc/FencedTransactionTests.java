package dev.hoplock.spring.jdbc;

import dev.hoplock.core.election.Elector;
import dev.hoplock.core.fencing.Fence;
import dev.hoplock.core.fencing.FencingException;
import dev.hoplock.core.fencing.StaleTokenException;
import dev.hoplock.spring.fencing.Fenced;
import dev.hoplock.spring.leader.LeaderOnly;
import dev.hoplock.spring.leader.LeaderOnlyAdvisor;
import dev.hoplock.spring.autoconfigure.HoplockAutoConfiguration;
import dev.hoplock.spring.autoconfigure.HoplockFencingAutoConfiguration;
import dev.hoplock.spring.autoconfigure.HoplockLeaderOnlyAutoConfiguration;
import dev.hoplock.spring.fencing.FencedAdvisor;
import dev.hoplock.spring.fencing.FencingTokenSource;
import dev.hoplock.spring.fencing.TransactionalJdbcFence;
import dev.hoplock.spring.support.Databases;
import dev.hoplock.spring.support.Failures;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.aop.Advisor;
import org.springframework.aop.framework.Advised;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.interceptor.TransactionInterceptor;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code @LeaderOnly @Fenced @Transactional} in real application contexts on PostgreSQL and MariaDB: leases in the
 * JDBC store, the fence table and the application's table in the same database, Boot's DataSource, transaction
 * manager and JdbcTemplate. A stale leader is simulated the way it happens: a newer leader already recorded a higher
 * token for the resource (through the fence bean, directly, in its own transaction).
 */
class FencedTransactionTests {

    private static final String RESOURCE = "invoices";

    private final String leases = Databases.uniqueTable("lease");
    private final String fences = Databases.uniqueTable("fence");
    private final String invoices = Databases.uniqueTable("invoice");
    private Databases used;

    private ApplicationContextRunner on(Databases database) {
        used = database;
        database.execute("CREATE TABLE " + invoices + " (id VARCHAR(64) NOT NULL PRIMARY KEY)");
        return FencedContexts.runner(HoplockAutoConfiguration.class, HoplockLeaderOnlyAutoConfiguration.class,
                        HoplockFencingAutoConfiguration.class)
                .withPropertyValues(database.dataSourceProperties())
                .withPropertyValues(FencedContexts.jdbcLeasesAndFence(leases, fences, invoices))
                .withPropertyValues("hoplock.ttl=10s", "hoplock.owner=leader")
                .withBean("invoices", Invoices.class)
                .withBean("billing", Billing.class);
    }

    @AfterEach
    void dropTables() {
        if (used != null) {
            used.dropTables(leases, fences, invoices);
        }
    }

    // ------------------------------------------------------------------ the leader's write, a stale leader's write

    @ParameterizedTest
    @EnumSource(value = Databases.class, names = {"POSTGRESQL", "MARIADB"})
    void theCurrentLeadersFencedWriteCommitsWithItsTermsToken(Databases database) {
        on(database).run(context -> {
            long generation = awaitLeader(context).currentLease().orElseThrow().generation();
            context.getBean(Invoices.class).issue("a-1");
            context.getBean(Invoices.class).issue("a-2");
            assertThat(database.column("SELECT id FROM " + invoices + " ORDER BY id")).containsExactly("a-1", "a-2");
            assertThat(storedToken(database)).containsExactly(String.valueOf(generation));
        });
    }

    @ParameterizedTest
    @EnumSource(value = Databases.class, names = {"POSTGRESQL", "MARIADB"})
    void aStaleLeadersTransactionRollsBackAndItsWritesAreNotVisible(Databases database) {
        on(database).run(context -> {
            long generation = awaitLeader(context).currentLease().orElseThrow().generation();
            long newer = generation + 1;
            // A newer leader has written 'invoices' with its token: the direct use of the fence bean.
            Fence fence = context.getBean(Fence.class);
            new TransactionTemplate(context.getBean(PlatformTransactionManager.class))
                    .executeWithoutResult(status -> fence.check(RESOURCE, newer));

            assertThatThrownBy(() -> context.getBean(Billing.class).issueWithAudit("b-1"))
                    .isInstanceOfSatisfying(StaleTokenException.class, refused -> {
                        assertThat(refused.resource()).isEqualTo(RESOURCE);
                        assertThat(refused.staleToken()).isEqualTo(generation);
                        assertThat(refused.currentToken()).isEqualTo(newer);
                    })
                    .hasMessage("fenced write to 'invoices' refused: token " + generation + " is stale, a newer"
                            + " leader already wrote with token " + newer + "; this process lost its lease and must"
                            + " stop writing");
            assertThatThrownBy(() -> context.getBean(Invoices.class).issue("b-2"))
                    .isInstanceOf(StaleTokenException.class);

            // The audit row written in the same transaction before the fenced call rolled back with it.
            assertThat(database.column("SELECT id FROM " + invoices)).isEmpty();
            assertThat(storedToken(database)).containsExactly(String.valueOf(newer));
        });
    }

    @ParameterizedTest
    @EnumSource(value = Databases.class, names = {"POSTGRESQL", "MARIADB"})
    void theCheckRunsInTheMethodsTransactionSoItRollsBackWithIt(Databases database) {
        on(database).run(context -> {
            awaitLeader(context);
            assertThatThrownBy(() -> context.getBean(Invoices.class).issueThenFail("c-1"))
                    .isInstanceOf(IllegalStateException.class).hasMessage("failed after the write");
            assertThat(database.column("SELECT id FROM " + invoices)).isEmpty();
            // Had the check used a connection of its own, the fence row would have been committed.
            assertThat(storedToken(database)).isEmpty();
        });
    }

    // ------------------------------------------------------------------ advisor order

    @ParameterizedTest
    @EnumSource(value = Databases.class, names = {"POSTGRESQL", "MARIADB"})
    void withDefaultOrdersTheChainIsGateThenTransactionThenFence(Databases database) {
        on(database).run(context -> {
            awaitLeader(context);
            List<Advisor> chain = Arrays.asList(((Advised) context.getBean(Invoices.class)).getAdvisors());
            int gate = indexOf(chain, LeaderOnlyAdvisor.class::isInstance);
            int transaction = indexOf(chain, advisor -> advisor.getAdvice() instanceof TransactionInterceptor);
            int fence = indexOf(chain, FencedAdvisor.class::isInstance);
            assertThat(gate).isNotNegative().isLessThan(transaction);
            assertThat(transaction).isLessThan(fence);
        });
    }

    @Test
    void withTheGateInsideTheTransactionTheFenceStillRunsInsideBoth() {
        on(Databases.POSTGRESQL).withUserConfiguration(TransactionsFirst.class)
                .withPropertyValues("hoplock.aspect-order=20").run(context -> {
                    long generation = awaitLeader(context).currentLease().orElseThrow().generation();
                    List<Advisor> chain = Arrays.asList(((Advised) context.getBean(Invoices.class)).getAdvisors());
                    int transaction = indexOf(chain, advisor -> advisor.getAdvice() instanceof TransactionInterceptor);
                    int gate = indexOf(chain, LeaderOnlyAdvisor.class::isInstance);
                    int fence = indexOf(chain, FencedAdvisor.class::isInstance);
                    assertThat(transaction).isNotNegative().isLessThan(gate);
                    assertThat(gate).isLessThan(fence);
                    context.getBean(Invoices.class).issue("d-1");
                    assertThat(Databases.POSTGRESQL.column("SELECT id FROM " + invoices)).containsExactly("d-1");
                    assertThat(storedToken(Databases.POSTGRESQL)).containsExactly(String.valueOf(generation));
                });
    }

    @Test
    void aFenceAdvisorOutsideTheTransactionFailsTheStart() {
        on(Databases.POSTGRESQL).withUserConfiguration(FenceAdvisorFirst.class).run(context -> {
            FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("@Fenced cannot work on bean 'invoices'",
                    "Invoices.issue(..) (@Fenced(\"invoices\")): the @Transactional advisor (order 2147483647) runs"
                            + " inside the fence advisor (order 2147483647), so the check would run before the"
                            + " transaction begins");
            assertThat(analysis.getAction()).contains("order the @Transactional and @LeaderOnly advisors before the"
                    .substring(1));
        });
    }

    // ------------------------------------------------------------------ start-up refusals

    @Test
    void aFencedMethodWithoutATransactionOrATokenFailsTheStart() {
        on(Databases.POSTGRESQL).withBean(Unfit.class).run(context -> {
            FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains(
                    "Unfit.notTransactional(..) (@Fenced(\"invoices\")) is not @Transactional",
                    "Unfit.supports(..) (@Fenced(\"invoices\")) has a transaction propagation that may run it without"
                            + " a transaction",
                    "Unfit.noToken(..) (@Fenced(\"invoices\")) carries no fencing token: tokens come from"
                            + " @LeaderOnly");
            assertThat(analysis.getAction()).contains("@Transactional", "@LeaderOnly");
        });
    }

    // ------------------------------------------------------------------ direct use and a missing table

    @ParameterizedTest
    @EnumSource(value = Databases.class, names = {"POSTGRESQL", "MARIADB"})
    void theFenceBeanRefusesACheckOutsideATransaction(Databases database) {
        on(database).run(context -> {
            assertThat(context).hasNotFailed();
            Fence fence = context.getBean(Fence.class);
            assertThat(fence).isInstanceOf(TransactionalJdbcFence.class);
            assertThatThrownBy(() -> fence.check(RESOURCE, 7)).isInstanceOf(FencingException.class)
                    .hasMessageContaining("must run inside a Spring transaction");
            assertThat(storedToken(database)).isEmpty();
        });
    }

    @ParameterizedTest
    @EnumSource(value = Databases.class, names = {"POSTGRESQL", "MARIADB"})
    void aMissingFenceTableFailsTheStartNamingTheTableAndTheDdl(Databases database) {
        String absent = Databases.uniqueTable("nofence");
        on(database).withPropertyValues("hoplock.fence.table=" + absent, "hoplock.fence.initialize-schema=never")
                .run(context -> {
                    FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("The hoplock fence table " + absent
                            + " does not exist", database.fenceDdl(), "@Fenced methods of [invoices] need it");
                    assertThat(analysis.getAction()).contains("hoplock.fence.initialize-schema=always");
                });
    }

    @ParameterizedTest
    @EnumSource(value = Databases.class, names = {"POSTGRESQL", "MARIADB"})
    void aFenceTableDroppedAfterTheStartFailsTheCheckNamingTheTableAndTheDdl(Databases database) {
        on(database).run(context -> {
            awaitLeader(context);
            database.dropTables(fences);
            assertThatThrownBy(() -> context.getBean(Invoices.class).issue("e-1"))
                    .isInstanceOf(FencingException.class)
                    .hasMessageContaining("hoplock fence table " + fences + " does not exist")
                    .hasMessageContaining(database.fenceDdl());
            assertThat(database.column("SELECT id FROM " + invoices)).isEmpty();
        });
    }

    // ------------------------------------------------------------------ helpers and beans

    private List<String> storedToken(Databases database) {
        return FencedContexts.storedTokens(database, fences, RESOURCE);
    }

    private static int indexOf(List<Advisor> chain, Predicate<Advisor> test) {
        for (int i = 0; i < chain.size(); i++) {
            if (test.test(chain.get(i))) {
                return i;
            }
        }
        return -1;
    }

    private static Elector awaitLeader(AssertableApplicationContext context) {
        return FencedContexts.awaitLeader(context, Duration.ofSeconds(10));
    }

    /** The leader's fenced writes. */
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

        @LeaderOnly
        @Fenced(RESOURCE)
        @Transactional
        public void issueThenFail(String id) {
            insert(id);
            throw new IllegalStateException("failed after the write");
        }
    }

    /** An outer transaction that writes, then calls the fenced method (which joins it). */
    public static class Billing extends FencedContexts.InvoiceTable {

        private final Invoices invoices;

        Billing(Invoices invoices, JdbcTemplate jdbc, Environment environment) {
            super(jdbc, environment);
            this.invoices = invoices;
        }

        @Transactional
        public void issueWithAudit(String id) {
            insert("audit-" + id);
            invoices.issue(id);
        }
    }

    /** Methods the validator refuses. */
    public static class Unfit {

        @LeaderOnly
        @Fenced(RESOURCE)
        public void notTransactional() {
        }

        @LeaderOnly
        @Fenced(RESOURCE)
        @Transactional(propagation = Propagation.SUPPORTS)
        public void supports() {
        }

        @Fenced(RESOURCE)
        @Transactional
        public void noToken() {
        }
    }

    /** The application's own transaction management, ordered before the gate (hoplock.aspect-order=20). */
    @Configuration(proxyBeanMethods = false)
    @EnableTransactionManagement(order = 10)
    static class TransactionsFirst {
    }

    /**
     * The application's own fence advisor: a user configuration's bean is registered before Boot's transaction
     * advisor, so with equal orders it sorts outside the transaction.
     */
    @Configuration(proxyBeanMethods = false)
    static class FenceAdvisorFirst {

        @Bean
        static FencedAdvisor hoplockFencedAdvisor(ObjectProvider<Fence> fence, ObjectProvider<FencingTokenSource> tokens) {
            return new FencedAdvisor(fence::getObject, new LazyTokens(tokens));
        }
    }

    /** Resolves the token source at first use (a static advisor bean must not create it early). */
    record LazyTokens(ObjectProvider<FencingTokenSource> tokens) implements FencingTokenSource {
        @Override
        public java.util.OptionalLong currentToken() {
            return tokens.getObject().currentToken();
        }

        @Override
        public String resource(String declared) {
            return tokens.getObject().resource(declared);
        }

        @Override
        public String currentHolder() {
            return tokens.getObject().currentHolder();
        }

        @Override
        public boolean covers(java.lang.reflect.Method method, Class<?> targetClass) {
            return tokens.getObject().covers(method, targetClass);
        }

        @Override
        public boolean isTokenAdvisor(Advisor advisor) {
            return tokens.getObject().isTokenAdvisor(advisor);
        }

        @Override
        public String describe() {
            return tokens.getObject().describe();
        }
    }
}
