package dev.hoplock.jdbc;

import dev.hoplock.core.fencing.Fence;
import dev.hoplock.core.fencing.FencingException;
import dev.hoplock.core.fencing.StaleTokenException;
import org.jspecify.annotations.Nullable;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Objects;

/**
 * A {@link Fence} in a table of the application's own database that runs inside the <em>caller's</em> transaction,
 * so that the check and the caller's writes commit or roll back together.
 *
 * <h2>How it refuses a stale write</h2>
 * {@link #check} runs one upsert on the fence table ({@value JdbcSchema#DEFAULT_FENCE_TABLE} by default) that creates
 * the resource's row the first time and otherwise records the token (with the holder, the lease's owner id, when the
 * caller names one) only if the stored one is lower, or equal with a compatible holder (the same one, or either side
 * without a holder):
 * <pre>
 *   PostgreSQL  INSERT INTO t AS f (resource, token, holder, updated_at) VALUES (?, ?, ?, CURRENT_TIMESTAMP)
 *               ON CONFLICT (resource) DO UPDATE SET token = EXCLUDED.token, holder = ..., updated_at = ...
 *               WHERE f.token &lt; EXCLUDED.token OR (f.token = EXCLUDED.token AND (f.holder IS NULL
 *                     OR EXCLUDED.holder IS NULL OR f.holder = EXCLUDED.holder))   -- 1 row: recorded, 0: refused
 *   MariaDB     INSERT ... ON DUPLICATE KEY UPDATE updated_at = IF(accepts, ...), holder = IF(...), token = IF(accepts,
 *               VALUES(token), token)                    -- the token last: each assignment sees the ones before
 *               then SELECT token, holder FROM t WHERE resource = ? FOR UPDATE   -- decides
 *   H2          MERGE INTO t ... WHEN MATCHED AND (the same condition) THEN UPDATE ... WHEN NOT MATCHED THEN INSERT
 * </pre>
 * On a refusal it reads the stored row and throws {@link StaleTokenException}, naming the resource, the stale token
 * and the stored one (and, for an equal token of another holder, both holders: the lease record was deleted and
 * re-created, see {@link Fence}); the caller's transaction must then roll back (Spring's {@code @Transactional} does
 * so for this unchecked exception). MariaDB/MySQL reports "rows affected" differently depending on the driver's
 * {@code useAffectedRows} setting, and an equal token leaves the row unchanged, so there the stored row is always
 * read back with a locking read instead of trusting the row count. A fence table created before the {@code holder}
 * column existed is reported with the {@code ALTER TABLE} that adds it.
 *
 * <h2>Why a stale transaction cannot interleave with a newer one</h2>
 * The upsert takes the resource row's exclusive lock (PostgreSQL locks the row even when the {@code WHERE} of
 * {@code DO UPDATE} is false; InnoDB locks the duplicate row for {@code ON DUPLICATE KEY UPDATE}), and the lock is
 * held until the caller's transaction ends. Every upsert compares with the latest <em>committed</em> token (the
 * conflict path of an upsert is never answered from an older snapshot), so:
 * <ul>
 *   <li>if the newer leader (token 5) checked first, the stale one (token 4) waits on the lock until 5 commits, then
 *       sees 5 and is refused; if 5 rolls back instead, 4 is legitimately the highest and passes;</li>
 *   <li>if the stale one checked first, the newer one waits until the stale transaction ends: the stale writes
 *       commit before anything the newer leader writes in its fenced transaction, which is the order the tokens
 *       say; the wait is bounded by the lock timeout (below), after which the newer check fails and its transaction
 *       rolls back, so no order is broken.</li>
 * </ul>
 * Hence the guarantee of {@link Fence}: among committed transactions that passed a check for one resource, tokens
 * never decrease in commit order. It covers exactly the writes made in the same transaction as the check, on the
 * same database; run the check first, so that waiting happens before the work.
 *
 * <h2>Use</h2>
 * The connection comes from the caller: {@link #forConnection} for a transaction you manage, or
 * {@link #forCurrentConnection} with a supplier of the transaction's current connection (for example Spring's
 * {@code () -> DataSourceUtils.getConnection(dataSource)}). A connection in autocommit mode is refused with
 * {@link FencingException}: the lock would end with the statement and protect nothing. The fence never commits,
 * rolls back or closes the connection.
 *
 * <h2>Bounded wait</h2>
 * Waiting for a concurrent fenced transaction of the same resource is bounded by the fence's lock timeout
 * ({@link #lockTimeout(Duration)}, default {@link #DEFAULT_LOCK_TIMEOUT}; in Spring Boot
 * {@code hoplock.fence.lock-timeout}): the fence's statements run with the database's lock-wait limit set to it
 * (PostgreSQL {@code lock_timeout}, local to the transaction; MariaDB/MySQL {@code innodb_lock_wait_timeout}, whole
 * seconds rounded up; H2 {@code LOCK_TIMEOUT}), and the caller's own value is put back after them. So a frozen
 * earlier holder whose open transaction holds the fence row (a GC pause, a stopped process) holds up the new holder's
 * fenced writes for at most that long: its check then fails with {@link FenceLockTimeoutException}, naming the
 * setting, and its transaction must roll back. When the frozen holder resumes after the new holder's check
 * committed, its own fence statement is refused by the token check ({@link StaleTokenException}).
 *
 * <p>Thread-safe if the connection source is (each thread's transaction its own connection).
 */
public final class JdbcFence implements Fence {

    /** Supplies the connection of the caller's current transaction; the fence does not close it. */
    @FunctionalInterface
    public interface ConnectionSource {
        Connection current() throws SQLException;
    }

    /** How long a check waits for the fence row's lock unless told otherwise: 5 seconds. */
    public static final Duration DEFAULT_LOCK_TIMEOUT = Duration.ofSeconds(5);

    private final ConnectionSource connections;
    private final TableName table;
    private final Duration lockTimeout;
    private volatile @Nullable Database database;

    private JdbcFence(ConnectionSource connections, TableName table, Duration lockTimeout,
            @Nullable Database database) {
        this.connections = Objects.requireNonNull(connections, "connections");
        this.table = table;
        this.lockTimeout = lockTimeout;
        this.database = database;
    }

    /** A fence that checks inside the transaction of {@code connection} (which must not be in autocommit mode). */
    public static JdbcFence forConnection(Connection connection) {
        Objects.requireNonNull(connection, "connection");
        return new JdbcFence(() -> connection, new TableName(JdbcSchema.DEFAULT_FENCE_TABLE), DEFAULT_LOCK_TIMEOUT,
                null);
    }

    /** A fence that asks {@code source} for the current transaction's connection at every check. */
    public static JdbcFence forCurrentConnection(ConnectionSource source) {
        return new JdbcFence(source, new TableName(JdbcSchema.DEFAULT_FENCE_TABLE), DEFAULT_LOCK_TIMEOUT, null);
    }

    /** This fence over another table (default {@value JdbcSchema#DEFAULT_FENCE_TABLE}). */
    public JdbcFence table(String table) {
        return new JdbcFence(connections, new TableName(table), lockTimeout, database);
    }

    /**
     * This fence with another bound on the wait for the fence row's lock (default {@link #DEFAULT_LOCK_TIMEOUT}; see
     * "Bounded wait" above). MariaDB/MySQL count whole seconds: the timeout is rounded up there.
     *
     * @throws IllegalArgumentException when {@code timeout} is zero or negative
     */
    public JdbcFence lockTimeout(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isZero() || timeout.isNegative() || timeout.toMillis() < 1) {
            throw new IllegalArgumentException("the fence's lock timeout must be at least 1ms, got " + timeout);
        }
        return new JdbcFence(connections, table, timeout, database);
    }

    /** The bound on the wait for the fence row's lock. */
    public Duration lockTimeout() {
        return lockTimeout;
    }

    /** The fence table, as used in SQL. */
    public String table() {
        return table.value();
    }

    @Override
    public void check(String resource, long token) {
        check(resource, token, "");
    }

    /**
     * As {@link Fence#check(String, long, String)}: records {@code token} with {@code holder}, and refuses an equal
     * token that another holder recorded (an empty holder, on either side, is compatible with every holder).
     */
    @Override
    public void check(String resource, long token, String holder) {
        Fence.validateResource(resource);
        Fence.validateHolder(holder);
        Connection connection;
        try {
            connection = Objects.requireNonNull(connections.current(), "the connection source returned null");
            if (connection.getAutoCommit()) {
                throw new FencingException(resource, "the fence check for '" + resource + "' must run inside a"
                        + " transaction (the connection is in autocommit mode, so the fence row's lock would end with"
                        + " the statement and protect nothing); start a transaction or use @Transactional", null);
            }
        } catch (SQLException e) {
            throw failure(resource, e);
        }
        @Nullable String named = holder.isEmpty() ? null : holder;
        try {
            Database db = database(connection, resource);
            boolean recorded = FenceLockWait.run(connection, db, lockTimeout, () -> switch (db) {
                case POSTGRESQL -> recordByRowCount(connection, resource, token, named, postgresqlUpsert());
                case MARIADB -> recordMariadb(connection, resource, token, named);
                case H2 -> recordH2(connection, resource, token, named);
            });
            if (!recorded) {
                refuse(connection, resource, token, named);
            }
        } catch (SQLException e) {
            if (FenceLockWait.isLockTimeout(e)) {
                throw new FenceLockTimeoutException(resource, table.value(), lockTimeout, e);
            }
            throw failure(resource, e);
        }
    }

    /** Runs an upsert whose row count is 1 when it recorded the token (0: refused, the row unchanged). */
    private static boolean recordByRowCount(Connection connection, String resource, long token,
            @Nullable String holder, String sql) throws SQLException {
        try (PreparedStatement upsert = connection.prepareStatement(sql)) {
            upsert.setString(1, resource);
            upsert.setLong(2, token);
            upsert.setString(3, holder);
            return upsert.executeUpdate() == 1;
        }
    }

    /**
     * MariaDB's {@code ON DUPLICATE KEY UPDATE} assigns left to right, each assignment seeing the ones before, so the
     * token comes last and every condition reads the stored row; the outcome is read back with a locking read.
     */
    private boolean recordMariadb(Connection connection, String resource, long token, @Nullable String holder)
            throws SQLException {
        String accepts = "(token < VALUES(token) OR (token = VALUES(token) AND (holder IS NULL"
                + " OR VALUES(holder) IS NULL OR holder = VALUES(holder))))";
        try (PreparedStatement upsert = connection.prepareStatement("INSERT INTO " + table
                + " (resource, token, holder, updated_at) VALUES (?, ?, ?, CURRENT_TIMESTAMP(3)) ON DUPLICATE KEY"
                + " UPDATE updated_at = IF(" + accepts + ", VALUES(updated_at), updated_at),"
                + " holder = IF(token < VALUES(token), VALUES(holder), IF(" + accepts + ", COALESCE(holder,"
                + " VALUES(holder)), holder)),"
                + " token = IF(" + accepts + ", VALUES(token), token)")) {
            upsert.setString(1, resource);
            upsert.setLong(2, token);
            upsert.setString(3, holder);
            upsert.executeUpdate();
        }
        Stored stored = stored(connection, resource, " FOR UPDATE");
        return stored.token == token && compatible(stored.holder, holder) || stored.token < token;
    }

    /**
     * H2's MERGE inserts when no row matched; two transactions creating the row at once meet a unique-key violation,
     * after which the row exists and the second attempt takes the update path.
     */
    private boolean recordH2(Connection connection, String resource, long token, @Nullable String holder)
            throws SQLException {
        String merge = "MERGE INTO " + table + " AS f USING (VALUES (CAST(? AS VARCHAR(255)), CAST(? AS BIGINT),"
                + " CAST(? AS VARCHAR(255)))) AS s(resource, token, holder) ON f.resource = s.resource"
                + " WHEN MATCHED AND (f.token < s.token OR (f.token = s.token AND (f.holder IS NULL"
                + " OR s.holder IS NULL OR f.holder = s.holder)))"
                + " THEN UPDATE SET holder = CASE WHEN f.token < s.token THEN s.holder"
                + " ELSE COALESCE(f.holder, s.holder) END, token = s.token, updated_at = CURRENT_TIMESTAMP"
                + " WHEN NOT MATCHED THEN INSERT (resource, token, holder, updated_at)"
                + " VALUES (s.resource, s.token, s.holder, CURRENT_TIMESTAMP)";
        try {
            return recordByRowCount(connection, resource, token, holder, merge);
        } catch (SQLException e) {
            if (!SqlErrors.isDuplicateKey(e)) {
                throw e;
            }
            return recordByRowCount(connection, resource, token, holder, merge);
        }
    }

    private String postgresqlUpsert() {
        return "INSERT INTO " + table + " AS f (resource, token, holder, updated_at)"
                + " VALUES (?, ?, ?, CURRENT_TIMESTAMP)"
                + " ON CONFLICT (resource) DO UPDATE SET token = EXCLUDED.token,"
                + " holder = CASE WHEN f.token < EXCLUDED.token THEN EXCLUDED.holder"
                + " ELSE COALESCE(f.holder, EXCLUDED.holder) END, updated_at = EXCLUDED.updated_at"
                + " WHERE f.token < EXCLUDED.token OR (f.token = EXCLUDED.token AND (f.holder IS NULL"
                + " OR EXCLUDED.holder IS NULL OR f.holder = EXCLUDED.holder))";
    }

    /** Throws the refusal for a check that recorded nothing, from the stored row (locked by the upsert). */
    private void refuse(Connection connection, String resource, long token, @Nullable String holder)
            throws SQLException {
        Stored stored = stored(connection, resource, "");
        if (stored.token > token) {
            throw new StaleTokenException(resource, token, stored.token);
        }
        if (stored.token == token && stored.holder != null && holder != null && !stored.holder.equals(holder)) {
            throw new StaleTokenException(resource, token, holder, stored.holder);
        }
        throw new FencingException(resource, "the fence check for '" + resource + "' in table " + table
                + " recorded nothing although the stored token " + stored.token + " (holder " + stored.holder
                + ") admits token " + token + "; the write must not proceed", null);
    }

    private static boolean compatible(@Nullable String recorded, @Nullable String holder) {
        return recorded == null || holder == null || recorded.equals(holder);
    }

    /** The fence row as stored. */
    private record Stored(long token, @Nullable String holder) {
    }

    private Stored stored(Connection connection, String resource, String lockClause) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement("SELECT token, holder FROM " + table
                + " WHERE resource = ?" + lockClause)) {
            select.setString(1, resource);
            try (ResultSet row = select.executeQuery()) {
                if (!row.next()) {
                    throw new FencingException(resource, "the fence row of '" + resource + "' in table " + table
                            + " vanished inside the transaction; was it deleted by hand?", null);
                }
                return new Stored(row.getLong(1), row.getString(2));
            }
        }
    }

    private Database database(Connection connection, String resource) throws SQLException {
        Database known = database;
        if (known == null) {
            try {
                known = JdbcSchema.supported(connection);
            } catch (IllegalStateException e) {
                throw new FencingException(resource, "the JDBC fence supports PostgreSQL, MariaDB/MySQL and H2: "
                        + e.getMessage(), e);
            }
            database = known;
        }
        return known;
    }

    private FencingException failure(String resource, SQLException e) {
        String state = e.getSQLState() == null ? "none" : e.getSQLState();
        if (state.equals("42703") || state.equals("42S22") || state.equals("42122")) {
            return new FencingException(resource, "hoplock fence table " + table + " lacks a column (SQLState "
                    + state + "): " + SqlErrors.clean(e) + "; tables created before the holder column was added need"
                    + " ALTER TABLE " + table + " ADD COLUMN holder VARCHAR(255) (see the DDL in "
                    + Database.RESOURCE_DIRECTORY + "fence-<database>.sql); the write to '" + resource
                    + "' was not checked", e);
        }
        if (state.equals("42P01") || state.equals("42S02")) {
            Database db = database;
            String ddl = db != null ? db.fenceSchemaResource() : Database.RESOURCE_DIRECTORY + "fence-<database>.sql";
            return new FencingException(resource, "hoplock fence table " + table + " does not exist; create it with"
                    + " the DDL in " + ddl + " (inside the hoplock-jdbc jar), or with"
                    + " JdbcSchema.initializeFenceTable(...); the write to '" + resource + "' was not checked", e);
        }
        return new FencingException(resource, "the fence check for '" + resource + "' in table " + table
                + " failed (SQLState " + state + "): " + SqlErrors.clean(e) + "; the write must not proceed and the"
                + " transaction must roll back", e);
    }
}
