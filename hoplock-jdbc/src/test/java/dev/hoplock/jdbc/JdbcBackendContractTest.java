package dev.hoplock.jdbc;

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

        private final BackendTable table;

        OnDatabase(TestDatabase database) {
            this.table = new BackendTable(database, "hoplock_contract");
        }

        @Override
        protected Backend backend() throws Exception {
            return table.backend(raceWriters() + 2);
        }

        /** Drops the table and creates it again from the shipped DDL. */
        @Override
        protected void recreateContainer() throws Exception {
            table.recreate(raceWriters() + 2);
        }

        @Override
        protected Duration timeout() {
            return Duration.ofSeconds(10);
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
