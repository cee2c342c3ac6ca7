package dev.hoplock.jdbc;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.CallBudget;
import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.LeaseKeys;
import dev.hoplock.core.backend.StoreCapabilities;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;
import org.jspecify.annotations.Nullable;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * A {@link Backend} over one table of a relational database (PostgreSQL, MariaDB/MySQL or H2), reached through a
 * {@link DataSource}: one row per lease key with the lease record's bytes and a version column that is the
 * {@link Handle}.
 *
 * <h2>Statements</h2>
 * Each operation is one single-row statement in its own transaction (autocommit):
 * <pre>
 *   read    SELECT content, version FROM t WHERE lease_key = ?
 *   create  INSERT INTO t (lease_key, content, version, updated_at) VALUES (?, ?, ?, CURRENT_TIMESTAMP)
 *   swap    UPDATE t SET content = ?, version = ?, updated_at = CURRENT_TIMESTAMP WHERE lease_key = ? AND version = ?
 *   delete  DELETE FROM t WHERE lease_key = ? AND version = ?
 * </pre>
 * A unique-key violation on create (SQLState class 23) and 0 rows on swap or delete are refusals, never errors. Only
 * a refused swap or delete is followed by a second statement, {@code SELECT 1 ... WHERE lease_key = ?}, to tell
 * {@link WriteResult.Refusal#NOT_FOUND} from {@link WriteResult.Refusal#PRECONDITION_FAILED} as the SPI asks. That
 * answer is linearisable at the instant of the second statement: a version, once replaced, never returns (versions
 * are random UUIDs, new on every write), so the key still does not hold the expected version then.
 *
 * <h2>Why this is linearisable at each database's default isolation</h2>
 * <ul>
 *   <li><b>Writes</b> to one key are totally ordered by the row's exclusive lock (or, for a create, by the primary
 *       key's unique index), held until the statement's commit, and every write evaluates its condition against the
 *       latest committed row while holding that lock: PostgreSQL at READ COMMITTED re-checks the {@code WHERE} of an
 *       {@code UPDATE}/{@code DELETE} on the newest row version after waiting for a concurrent writer (its
 *       "EvalPlanQual" recheck); InnoDB (MariaDB/MySQL) at REPEATABLE READ reads the latest committed row for
 *       {@code UPDATE}, {@code DELETE} and the duplicate check of {@code INSERT} (a locking "current read", not the
 *       snapshot); H2 2.x locks the row and re-evaluates the condition on its committed version. A waiting
 *       {@code INSERT} of an existing key fails with a unique-key violation once the other insert commits. So of any
 *       number of concurrent writes expecting the same version, exactly one matches.</li>
 *   <li><b>Reads</b> are autocommit statements, so their snapshot is taken when the statement starts (READ COMMITTED
 *       on PostgreSQL and H2; on InnoDB the REPEATABLE READ snapshot of a one-statement transaction): a read sees every
 *       write committed before it started, and nothing uncommitted.</li>
 *   <li>Each operation therefore takes effect at one instant (its commit, or its snapshot) between its call and its
 *       return. A deadlock victim or serialization failure (SQLState 40001, 40P01; InnoDB can report one when
 *       inserts of one key race) was rolled back by the database, so the statement is repeated while time is left.</li>
 * </ul>
 * Limits: the DataSource must reach the primary (a read replica can answer stale reads); a connection set to
 * READ UNCOMMITTED is raised to READ COMMITTED for the call; multi-primary clusters (Galera, group replication) are
 * not covered by this argument.
 *
 * <h2>Time and unknown outcomes</h2>
 * Every statement is bounded by the call's {@link CallBudget}, see {@link JdbcBounds}: the driver stops waiting at the
 * deadline (network timeout, to the millisecond), and the query timeout (whole seconds, rounded up) bounds drivers
 * without a network. A write whose answer
 * did not arrive (timeout, connection lost during the statement or its commit, SQLState class 08) is a
 * {@link BackendException.Kind#TRANSIENT} exception whose message says the outcome is unknown; the elector's
 * adoption rule settles it by a later read. Versions are generated here, so a write's handle is known without a
 * second round trip.
 *
 * <h2>Errors</h2>
 * A missing table is {@link BackendException.Kind#MISSING_CONTAINER} naming the table and the DDL file; wrong
 * credentials and missing privileges are {@link BackendException.Kind#ACCESS_DENIED}; a database that cannot be
 * reached is {@link BackendException.Kind#UNREACHABLE}; see {@link SqlErrors}. No message or {@link #describe()}
 * contains the JDBC URL or a password.
 *
 * <h2>Only its own transactions</h2>
 * The store never commits or rolls back work that is not its own. A connection borrowed in manual-commit mode is
 * used only when the database proves that no transaction is open on it ({@link OpenTransaction}: pgjdbc's
 * transaction state, MariaDB's {@code @@in_transaction}, H2's session table); then switching it to auto-commit for
 * the call and back commits nothing but the store's own statements. A connection in the middle of another
 * transaction (Spring's {@code TransactionAwareDataSourceProxy} inside {@code @Transactional}, a pool connection
 * returned with uncommitted work), or one whose database cannot tell (MySQL, other databases), is refused with
 * {@link BackendException.Kind#MISCONFIGURED} before anything is sent, naming the fix: give hoplock a DataSource of
 * its own. We chose refusing over running the store's statements inside the application's transaction: a lease
 * write must be durable when the call returns, whatever the application later does with its transaction.
 *
 * <p>Thread-safe; it holds no connection between calls. The DataSource should be a pool; every call borrows one
 * connection and returns it (restoring auto-commit, isolation and network timeout as it found them).
 */
public final class JdbcBackend implements Backend {

    /**
     * {@link #DEFAULT_REQUEST_TIMEOUT} in seconds, a compile-time constant: a configuration layer that has this module
     * only as an optional dependency takes its default from here without loading this class.
     */
    public static final long DEFAULT_REQUEST_TIMEOUT_SECONDS = 10;
    /** The longest a call may take when the caller allows longer. */
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(DEFAULT_REQUEST_TIMEOUT_SECONDS);

    private final DataSource dataSource;
    private final TableName table;
    private final Duration requestTimeout;
    private final String description;
    private final @Nullable Database database;
    private final SqlErrors errors;
    private final String selectSql;
    private final String existsSql;
    private final String insertSql;
    private final String updateSql;
    private final String deleteSql;

    JdbcBackend(DataSource dataSource, TableName table, Duration requestTimeout, Optional<Database> database) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.table = Objects.requireNonNull(table, "table");
        this.requestTimeout = Objects.requireNonNull(requestTimeout, "requestTimeout");
        this.description = "jdbc:" + database.map(d -> d.name().toLowerCase(java.util.Locale.ROOT)).orElse("database")
                + " table " + table;
        this.database = database.orElse(null);
        this.errors = new SqlErrors(table, database.map(Database::leaseSchemaResource)
                .orElse(Database.allLeaseSchemaResources()));
        this.selectSql = "SELECT content, version FROM " + table + " WHERE lease_key = ?";
        this.existsSql = "SELECT 1 FROM " + table + " WHERE lease_key = ?";
        this.insertSql = "INSERT INTO " + table + " (lease_key, content, version, updated_at)"
                + " VALUES (?, ?, ?, CURRENT_TIMESTAMP)";
        this.updateSql = "UPDATE " + table + " SET content = ?, version = ?, updated_at = CURRENT_TIMESTAMP"
                + " WHERE lease_key = ? AND version = ?";
        this.deleteSql = "DELETE FROM " + table + " WHERE lease_key = ? AND version = ?";
    }

    /** Starts the configuration of a JDBC backend over {@code dataSource}. */
    public static JdbcBackendBuilder builder(DataSource dataSource) {
        return new JdbcBackendBuilder(dataSource);
    }

    /** The table that holds the leases, as used in SQL. */
    public String table() {
        return table.value();
    }

    @Override
    public Optional<StoredObject> read(String key, Duration timeout) throws BackendException {
        LeaseKeys.validate(key);
        return call("read", key, timeout, false, (connection, deadline) -> {
            try (PreparedStatement select = prepare(connection, selectSql, deadline)) {
                select.setString(1, key);
                try (ResultSet row = select.executeQuery()) {
                    if (!row.next()) {
                        return Optional.empty();
                    }
                    return Optional.of(new StoredObject(row.getBytes(1), Handle.of(row.getString(2))));
                }
            }
        });
    }

    @Override
    public WriteResult write(String key, Handle expected, byte[] content, Duration timeout) throws BackendException {
        LeaseKeys.validate(key);
        Objects.requireNonNull(expected, "expected");
        byte[] bytes = Objects.requireNonNull(content, "content").clone();
        if (expected.isNone()) {
            return call("create", key, timeout, true, (connection, deadline) -> create(connection, deadline, key, bytes));
        }
        return call("compare-and-swap", key, timeout, true, (connection, deadline) -> {
            Handle next = newVersion();
            int rows;
            try (PreparedStatement update = prepare(connection, updateSql, deadline)) {
                update.setBytes(1, bytes);
                update.setString(2, next.value());
                update.setString(3, key);
                update.setString(4, expected.value());
                rows = update.executeUpdate();
            }
            if (rows == 1) {
                return WriteResult.written(next);
            }
            return exists(connection, deadline, key) ? WriteResult.preconditionFailed() : WriteResult.notFound();
        });
    }

    @Override
    public DeleteResult delete(String key, Handle expected, Duration timeout) throws BackendException {
        LeaseKeys.validate(key);
        Objects.requireNonNull(expected, "expected");
        return call("delete", key, timeout, true, (connection, deadline) -> {
            if (!expected.isNone()) {
                try (PreparedStatement delete = prepare(connection, deleteSql, deadline)) {
                    delete.setString(1, key);
                    delete.setString(2, expected.value());
                    if (delete.executeUpdate() == 1) {
                        return DeleteResult.DELETED;
                    }
                }
            }
            return exists(connection, deadline, key) ? DeleteResult.PRECONDITION_FAILED : DeleteResult.NOT_FOUND;
        });
    }

    /**
     * Checks that the table exists with the columns hoplock needs and that the DataSource's user may read it, by one
     * query that returns no rows.
     *
     * @return every capability assumed: the SQL statements are conditional by construction
     * @throws BackendException {@link BackendException.Kind#MISSING_CONTAINER} naming the table and the DDL file when
     *                          the table is missing; another kind when the database cannot be asked
     */
    @Override
    public StoreCapabilities verify() throws BackendException {
        String sql = "SELECT lease_key, content, version, updated_at FROM " + table + " WHERE 1 = 0";
        call("verification", null, requestTimeout, false, (connection, deadline) -> {
            try (PreparedStatement check = prepare(connection, sql, deadline); ResultSet ignored = check.executeQuery()) {
                return true;
            }
        });
        return StoreCapabilities.assumed(describe());
    }

    /** {@code jdbc:<database> table <name>}; never the URL, the user or a password. */
    @Override
    public String describe() {
        return description;
    }

    @Override
    public String toString() {
        return "JdbcBackend[" + description + "]";
    }

    private WriteResult create(Connection connection, CallBudget deadline, String key, byte[] bytes)
            throws SQLException {
        Handle version = newVersion();
        try (PreparedStatement insert = prepare(connection, insertSql, deadline)) {
            insert.setString(1, key);
            insert.setBytes(2, bytes);
            insert.setString(3, version.value());
            insert.executeUpdate();
            return WriteResult.written(version);
        } catch (SQLException e) {
            if (SqlErrors.isDuplicateKey(e)) {
                return WriteResult.preconditionFailed();
            }
            throw e;
        }
    }

    private boolean exists(Connection connection, CallBudget deadline, String key) throws SQLException {
        try (PreparedStatement select = prepare(connection, existsSql, deadline)) {
            select.setString(1, key);
            try (ResultSet row = select.executeQuery()) {
                return row.next();
            }
        }
    }

    private static PreparedStatement prepare(Connection connection, String sql, CallBudget deadline)
            throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql);
        try {
            JdbcBounds.boundStatement(statement, deadline);
        } catch (SQLException | RuntimeException e) {
            statement.close();
            throw e;
        }
        return statement;
    }

    private static Handle newVersion() {
        return Handle.of(UUID.randomUUID().toString());
    }

    /** The statements of one backend call on one borrowed connection. */
    @FunctionalInterface
    private interface SqlCall<T extends @Nullable Object> {
        T run(Connection connection, CallBudget deadline) throws SQLException;
    }

    /**
     * Runs {@code work} on a borrowed connection in autocommit mode within the call's deadline, repeats it while the
     * database reports it rolled back and time is left, and translates every failure.
     */
    private <T extends @Nullable Object> T call(String operation, @Nullable String key, Duration timeout, boolean change,
            SqlCall<T> work)
            throws BackendException {
        CallBudget deadline = CallBudget.forCall(timeout, requestTimeout,
                () -> "the " + SqlErrors.target(operation, key, table));
        Connection connection;
        try {
            connection = dataSource.getConnection();
        } catch (SQLException e) {
            throw errors.connecting(e);
        }
        try (connection) {
            if (!deadline.hasTimeLeft()) {
                throw noTimeLeft(operation, key, timeout);
            }
            OpenTransaction.Answer open = OpenTransaction.on(connection, database, deadline);
            if (open != OpenTransaction.Answer.NONE_OPEN) {
                throw new BackendException(BackendException.Kind.MISCONFIGURED, OpenTransaction.refusal(open,
                        SqlErrors.target(operation, key, table), "nothing was sent"));
            }
            ConnectionState saved = ConnectionState.prepare(connection, database, deadline);
            try {
                while (true) {
                    try {
                        return work.run(connection, deadline);
                    } catch (SQLException e) {
                        if (!SqlErrors.isRolledBack(e) || !deadline.hasTimeLeft()) {
                            throw e;
                        }
                    }
                }
            } finally {
                saved.restore(connection);
            }
        } catch (SQLException e) {
            throw errors.executing(e, operation, key, deadline, change);
        }
    }

    private BackendException noTimeLeft(String operation, @Nullable String key, Duration timeout) {
        return new BackendException(BackendException.Kind.TRANSIENT, "no time left for the "
                + SqlErrors.target(operation, key, table) + " (timeout " + timeout.toMillis() + " ms); nothing was sent");
    }

    /**
     * What a call changes on a borrowed connection, to put back before returning it. Only for a connection on which
     * {@link OpenTransaction} found no transaction open: the switch to auto-commit and back then commits nothing.
     */
    private record ConnectionState(boolean autoCommit, int isolation, int networkTimeout) {

        /**
         * PostgreSQL runs READ UNCOMMITTED as READ COMMITTED, so its isolation is never raised, and not asked for:
         * pgjdbc answers {@link Connection#getTransactionIsolation()} with a round trip to the server
         * ({@code SHOW TRANSACTION ISOLATION LEVEL}), which doubled the round trips of every call (issue 24).
         */
        static ConnectionState prepare(Connection connection, @Nullable Database database, CallBudget deadline)
                throws SQLException {
            int isolation = database == Database.POSTGRESQL ? Connection.TRANSACTION_READ_COMMITTED
                    : connection.getTransactionIsolation();
            ConnectionState saved = new ConnectionState(connection.getAutoCommit(), isolation,
                    JdbcBounds.boundNetwork(connection, deadline));
            if (!saved.autoCommit) {
                connection.setAutoCommit(true);
            }
            if (saved.isolation == Connection.TRANSACTION_READ_UNCOMMITTED) {
                connection.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
            }
            return saved;
        }

        /** Best effort: a connection that cannot be restored is broken, and its pool discards it. */
        void restore(Connection connection) {
            try {
                if (connection.isClosed()) {
                    return;
                }
                if (isolation == Connection.TRANSACTION_READ_UNCOMMITTED) {
                    connection.setTransactionIsolation(isolation);
                }
                if (!autoCommit) {
                    connection.setAutoCommit(false);
                }
                JdbcBounds.restoreNetwork(connection, networkTimeout);
            } catch (SQLException broken) {
                // Keep the answer (or the failure) of the call itself.
            }
        }
    }
}
