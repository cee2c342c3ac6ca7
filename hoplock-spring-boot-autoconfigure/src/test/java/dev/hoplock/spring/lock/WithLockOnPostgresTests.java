package dev.hoplock.spring.lock;

import dev.hoplock.core.fencing.Fence;
import dev.hoplock.core.fencing.StaleTokenException;
import dev.hoplock.spring.fencing.Fenced;
import dev.hoplock.spring.autoconfigure.HoplockAutoConfiguration;
import dev.hoplock.spring.autoconfigure.HoplockFencingAutoConfiguration;
import dev.hoplock.spring.autoconfigure.HoplockLeaderOnlyAutoConfiguration;
import dev.hoplock.spring.autoconfigure.HoplockLocksAutoConfiguration;
import dev.hoplock.spring.support.Databases;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionTemplate;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code @WithLock} over the JDBC store on a real PostgreSQL: two contexts on one lease table (only one runs), and
 * {@code @Fenced} taking the lock's token (no {@code @LeaderOnly} on the method).
 */
class WithLockOnPostgresTests {

    private static final Databases DB = Databases.POSTGRESQL;
    private final String leases = Databases.uniqueTable("lease");
    private final String fences = Databases.uniqueTable("fence");
    private final String rows = Databases.uniqueTable("export");

    private ApplicationContextRunner runner(String owner) {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
                        DataSourceTransactionManagerAutoConfiguration.class, TransactionAutoConfiguration.class,
                        JdbcTemplateAutoConfiguration.class, AopAutoConfiguration.class,
                        HoplockAutoConfiguration.class, HoplockLeaderOnlyAutoConfiguration.class,
                        HoplockLocksAutoConfiguration.class, HoplockFencingAutoConfiguration.class))
                .withPropertyValues(DB.dataSourceProperties())
                .withPropertyValues("hoplock.backend=jdbc", "hoplock.ttl=10s", "hoplock.owner=" + owner,
                        "hoplock.locks.owner=" + owner,
                        "hoplock.jdbc.table=" + leases, "hoplock.jdbc.initialize-schema=always",
                        "hoplock.fence.table=" + fences, "hoplock.fence.initialize-schema=always",
                        "test.rows=" + rows)
                .withUserConfiguration(ExportBeans.class);
    }

    @AfterEach
    void dropTables() {
        DB.dropTables(leases, fences, rows);
    }

    @Test
    void onlyOneOfTwoContextsRunsAndTheFencedWriteCarriesTheLocksToken() {
        DB.execute("CREATE TABLE " + rows + " (id VARCHAR(64) NOT NULL PRIMARY KEY)");
        runner("a").run(a -> runner("b").run(b -> {
            Export exportA = a.getBean(Export.class);
            Export exportB = b.getBean(Export.class);
            CountDownLatch entered = exportA.holdNextCall();
            CompletableFuture<Long> running = CompletableFuture.supplyAsync(() -> exportA.export("a-1"));
            assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(exportB.export("b-1")).as("skipped while a holds the lock").isNull();
            exportA.letGo();
            long tokenA = running.get(10, TimeUnit.SECONDS);

            Long tokenB = exportB.export("b-2");
            assertThat(tokenB).as("released: b takes it at once, with a newer token").isGreaterThan(tokenA);
            assertThat(DB.column("SELECT id FROM " + rows + " ORDER BY id")).containsExactly("a-1", "b-2");
            assertThat(DB.column("SELECT token FROM " + fences + " WHERE resource = ?", "exports"))
                    .containsExactly(String.valueOf(tokenB));

            // A holder of an older token is refused by the fence, and its write rolls back.
            Fence fence = b.getBean(Fence.class);
            new TransactionTemplate(b.getBean(PlatformTransactionManager.class))
                    .executeWithoutResult(status -> fence.check("exports", tokenB + 100));
            assertThatThrownBy(() -> exportA.export("a-2")).isInstanceOf(StaleTokenException.class);
            assertThat(DB.column("SELECT id FROM " + rows + " ORDER BY id")).containsExactly("a-1", "b-2");
        }));
    }

    @Configuration(proxyBeanMethods = false)
    static class ExportBeans {

        @Bean
        Export export(JdbcTemplate jdbc, Environment environment) {
            return new Export(jdbc, environment.getRequiredProperty("test.rows"));
        }
    }

    /** A fenced export under a lock. */
    public static class Export {

        private final JdbcTemplate jdbc;
        private final String table;
        private volatile @Nullable CountDownLatch entered;
        private volatile @Nullable CountDownLatch hold;
        private volatile @Nullable CountDownLatch release;

        Export(JdbcTemplate jdbc, String table) {
            this.jdbc = jdbc;
            this.table = table;
        }

        public CountDownLatch holdNextCall() {
            entered = new CountDownLatch(1);
            release = new CountDownLatch(1);
            hold = release;
            return entered;
        }

        public void letGo() {
            Objects.requireNonNull(release, "holdNextCall() first").countDown();
        }

        /** Writes the row; returns the token it was written with. */
        @WithLock(name = "export", lockAtMostFor = "1m")
        @Fenced("exports")
        @Transactional
        public Long export(String id) {
            jdbc.update("INSERT INTO " + table + " (id) VALUES (?)", id);
            CountDownLatch wait = hold;
            if (wait != null) {
                hold = null;
                Objects.requireNonNull(entered, "set with hold").countDown();
                try {
                    wait.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return LockContextHolder.currentToken().orElseThrow();
        }
    }
}
