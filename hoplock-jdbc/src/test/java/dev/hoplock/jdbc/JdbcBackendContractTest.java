package dev.hoplock.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import dev.hoplock.core.backend.Backend;
import dev.hoplock.test.BackendContractTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.TestInstance;

import java.time.Duration;

/**
 * The whole backend contract, races included, for {@link JdbcBackend} on the real PostgreSQL and MariaDB servers
 * and on H2 in memory. Each class run uses its own table (created from the shipped DDL, dropped afterwards).
 */
class JdbcBackendContractTest {

    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    abstract static class OnDatabase extends BackendContractTest {

        private final TestDatabase database;
        private final String table = TestDatabase.uniqueTable("hoplock_contract");
        private HikariDataSource pool;
        private JdbcBackend backend;

        OnDatabase(TestDatabase database) {
            this.database = database;
        }

        @Override
        protected Backend backend() throws Exception {
            if (backend == null) {
                pool = database.pool(raceWriters() + 2);
                backend = JdbcBackend.builder(pool).table(table).initializeSchema(InitializeSchema.ALWAYS).build();
            }
            return backend;
        }

        @Override
        protected Duration timeout() {
            return Duration.ofSeconds(10);
        }

        @AfterAll
        void dropTable() throws Exception {
            if (pool != null) {
                database.dropTable(pool, table);
                pool.close();
            }
        }
    }

    @Nested
    class PostgreSql extends OnDatabase {
        PostgreSql() {
            super(TestDatabase.POSTGRESQL);
        }
    }

    @Nested
    class MariaDb extends OnDatabase {
        MariaDb() {
            super(TestDatabase.MARIADB);
        }
    }

    @Nested
    class H2 extends OnDatabase {
        H2() {
            super(TestDatabase.H2);
        }
    }
}
