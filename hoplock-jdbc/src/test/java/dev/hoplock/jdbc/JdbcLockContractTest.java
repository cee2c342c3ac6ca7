package dev.hoplock.jdbc;

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

        private final BackendTable table;

        OnDatabase(TestDatabase database) {
            this.table = new BackendTable(database, "hoplock_locks");
        }

        @Override
        protected Backend backend() throws Exception {
            return table.backend(8);
        }

        @AfterAll
        void dropTable() throws Exception {
            table.close();
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
