package dev.hoplock.jdbc;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.test.ElectorFuzzTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Nested;

import java.time.Duration;

/**
 * The elector fuzz run (real electors, injected stalls, closes and step-downs; no two leaders at once, rising fencing
 * tokens) over {@link JdbcBackend} on the real PostgreSQL and MariaDB servers and on H2 in memory, each on a table
 * of its own that is dropped afterwards.
 */
class JdbcElectorFuzzTest {

    abstract static class OnDatabase extends ElectorFuzzTest {

        private final BackendTable table;

        OnDatabase(TestDatabase database) {
            this.table = new BackendTable(database, "hoplock_fuzz");
        }

        @Override
        protected Backend backend() throws Exception {
            return table.backend(electors() * 3);
        }

        @Override
        protected Duration ttl() {
            return Duration.ofMillis(1500);
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
