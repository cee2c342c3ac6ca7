package dev.hoplock.jdbc;

import com.zaxxer.hikari.HikariDataSource;
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

        private final TestDatabase database;
        private final String table = TestDatabase.uniqueTable("hoplock_fuzz");
        private HikariDataSource pool;

        OnDatabase(TestDatabase database) {
            this.database = database;
        }

        @Override
        protected Backend backend() throws Exception {
            pool = database.pool(electors() * 3);
            return JdbcBackend.builder(pool).table(table).initializeSchema(InitializeSchema.ALWAYS).build();
        }

        @Override
        protected Duration ttl() {
            return Duration.ofMillis(1500);
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
