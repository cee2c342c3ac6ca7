package dev.hoplock.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import org.jspecify.annotations.Nullable;
import java.util.Objects;

/**
 * The store of one test class on one of the {@link TestDatabase}s: a table of its own, created from the shipped DDL
 * with a connection pool by the first {@link #backend(int)} call, and dropped, with its pool closed, by
 * {@link #close()} (which does nothing if no backend was made). Every {@link #backend(int)} call returns the same
 * backend.
 */
final class BackendTable implements AutoCloseable {

    private final TestDatabase database;
    private final String table;
    private @Nullable HikariDataSource pool;
    private @Nullable JdbcBackend backend;

    /** A table named {@code prefix} plus a random suffix on {@code database}; nothing is made yet. */
    BackendTable(TestDatabase database, String prefix) {
        this.database = database;
        this.table = TestDatabase.uniqueTable(prefix);
    }

    /** The table's name. */
    String name() {
        return table;
    }

    /** The backend over the table; the first call makes a pool of {@code poolSize} connections and the table. */
    synchronized JdbcBackend backend(int poolSize) throws Exception {
        if (backend == null) {
            HikariDataSource made = database.pool(poolSize);
            pool = made;
            backend = JdbcBackend.builder(made).table(table).initializeSchema(InitializeSchema.ALWAYS).build();
        }
        return backend;
    }

    /**
     * Drops the table and creates it again, empty, from the shipped DDL, under the running backend (made first if
     * there is none): a new incarnation of the store.
     */
    synchronized void recreate(int poolSize) throws Exception {
        backend(poolSize);
        HikariDataSource made = Objects.requireNonNull(pool, "made by backend(poolSize)");
        database.dropTable(made, table);
        JdbcSchema.initializeLeaseTable(made, table, InitializeSchema.ALWAYS);
    }

    @Override
    public synchronized void close() throws Exception {
        if (pool != null) {
            database.dropTable(pool, table);
            pool.close();
        }
    }
}
