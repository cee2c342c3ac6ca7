package dev.hoplock.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import dev.hoplock.core.backend.Backend;
import dev.hoplock.test.LockContractTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.TestInstance;

/**
 * The named-lock contract for {@link JdbcBackend} on the real PostgreSQL and MariaDB servers and on H2 in memory. Each
 * class run uses its own table (created from the shipped DDL, dropped afterwards).
 */
class JdbcLockContractTest {

    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    abstract static class OnDatabase extends LockContractTest {

        private final TestDatabase database;
        private final String table = TestDatabase.uniqueTable("hoplock_locks");
        private HikariDataSource pool;
        private JdbcBackend backend;

        OnDatabase(TestDatabase database) {
            this.database = database;
        }

        @Override
        protected Backend backend() throws Exception {
            if (backend == null) {
                pool = database.pool(8);
                backend = JdbcBackend.builder(pool).table(table).initializeSchema(InitializeSchema.ALWAYS).build();
            }
            return backend;
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
