package dev.hoplock.spring.jdbc;

import dev.hoplock.jdbc.FenceLockTimeoutException;
import dev.hoplock.spring.autoconfigure.HoplockAutoConfiguration;
import dev.hoplock.spring.autoconfigure.HoplockFencingAutoConfiguration;
import dev.hoplock.spring.autoconfigure.HoplockLeaderOnlyAutoConfiguration;
import dev.hoplock.spring.fencing.Fenced;
import dev.hoplock.spring.fencing.TransactionalJdbcFence;
import dev.hoplock.spring.leader.LeaderOnly;
import dev.hoplock.spring.support.Databases;
import dev.hoplock.spring.support.Failures;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.annotation.Transactional;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 23, fix 7: a frozen earlier leader whose open transaction holds the fence row holds up the live leader's
 * {@code @Fenced} write for at most {@code hoplock.fence.lock-timeout}; the write then fails with an error naming the
 * setting, and passes once the frozen transaction ended. On real PostgreSQL and MariaDB.
 */
class FenceLockTimeoutTests {

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
                .withBean("invoices", Invoices.class);
    }

    @AfterEach
    void dropTables() {
        if (used != null) {
            used.dropTables(leases, fences, invoices);
        }
    }

    @ParameterizedTest
    @EnumSource(value = Databases.class, names = {"POSTGRESQL", "MARIADB"})
    void aFrozenLeadersOpenTransactionHoldsUpTheLiveLeadersFencedWriteAtMostTheLockTimeout(Databases database)
            throws Exception {
        Duration timeout = Duration.ofSeconds(1);
        ExecutorService caller = Executors.newSingleThreadExecutor();
        on(database).withPropertyValues("hoplock.fence.lock-timeout=1s").run(context -> {
            FencedContexts.awaitLeader(context, Duration.ofSeconds(10));
            assertThat(context.getBean(TransactionalJdbcFence.class).lockTimeout()).isEqualTo(timeout);
            try (Connection frozen = database.connect()) {
                // The frozen old leader: its fenced transaction wrote the fence row (a lower token) and never ended.
                frozen.setAutoCommit(false);
                try (PreparedStatement row = frozen.prepareStatement("INSERT INTO " + fences
                        + " (resource, token, holder, updated_at) VALUES (?, 0, 'old-leader', CURRENT_TIMESTAMP)")) {
                    row.setString(1, RESOURCE);
                    row.executeUpdate();
                }

                long started = System.nanoTime();
                CompletableFuture<Throwable> write = CompletableFuture.supplyAsync(() -> {
                    try {
                        context.getBean(Invoices.class).issue("a-1");
                        return null;
                    } catch (RuntimeException e) {
                        return e;
                    }
                }, caller);
                Throwable failure = write.get(timeout.plusSeconds(10).toMillis(), TimeUnit.MILLISECONDS);
                Duration waited = Duration.ofNanos(System.nanoTime() - started);

                assertThat(failure).isInstanceOfSatisfying(FenceLockTimeoutException.class, e -> {
                    assertThat(e.resource()).isEqualTo(RESOURCE);
                    assertThat(e).hasMessageContaining("hoplock.fence.lock-timeout").hasMessageContaining("(1s)");
                });
                assertThat(waited).as("held up about the timeout, not until the frozen transaction ends")
                        .isGreaterThanOrEqualTo(timeout.minusMillis(100)).isLessThan(timeout.plusSeconds(5));
                assertThat(database.column("SELECT id FROM " + invoices)).as("the write rolled back").isEmpty();

                frozen.rollback();
            }
            context.getBean(Invoices.class).issue("a-2");
            assertThat(database.column("SELECT id FROM " + invoices)).containsExactly("a-2");
        });
        caller.shutdownNow();
    }

    @Test
    void aLockTimeoutBelowOneMillisecondFailsTheStartNamingTheProperty() {
        on(Databases.POSTGRESQL).withPropertyValues("hoplock.fence.lock-timeout=0s").run(context -> {
            FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("hoplock.fence.lock-timeout is PT0S", "at least 1ms");
            assertThat(analysis.getAction()).contains("hoplock.fence.lock-timeout", "5s");
        });
    }

    @Test
    void theDefaultLockTimeoutIsFiveSeconds() {
        on(Databases.POSTGRESQL).run(context -> assertThat(context.getBean(TransactionalJdbcFence.class)
                .lockTimeout()).isEqualTo(Duration.ofSeconds(5)));
    }

    /** The leader's fenced write. */
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
}
