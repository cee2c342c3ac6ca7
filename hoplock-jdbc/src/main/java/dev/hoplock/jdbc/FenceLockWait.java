package dev.hoplock.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.time.Duration;

/**
 * The bound on how long the fence's statements wait for the fence row's lock, per database: the statements run with
 * the database's lock-wait limit set to the fence's timeout, and the caller's own setting is put back afterwards.
 *
 * <p>Guarantees: while {@link #run} runs, a statement that waits for a row lock fails after about the timeout
 * (PostgreSQL {@code lock_timeout} in milliseconds, set with {@code set_config(..., true)} so that it is local to the
 * transaction; MariaDB/MySQL {@code innodb_lock_wait_timeout} in whole seconds, rounded up, at session level; H2
 * {@code LOCK_TIMEOUT} in milliseconds, at session level). The previous value is restored after the statements: on
 * MariaDB/MySQL and H2 always (a pooled connection must not keep it), on PostgreSQL when the statements succeeded (a
 * failed statement aborts the transaction, and the local setting ends with it). {@link #isLockTimeout} recognises the
 * failure each database reports for it.
 */
final class FenceLockWait {

    /** MySQL/MariaDB: "Lock wait timeout exceeded". */
    private static final int MYSQL_LOCK_WAIT_TIMEOUT = 1205;
    /** H2: "Timeout trying to lock table" (ErrorCode.LOCK_TIMEOUT_1). */
    private static final int H2_LOCK_TIMEOUT = 50200;

    /** The statements to run under the bound. */
    @FunctionalInterface
    interface Statements<T> {
        T run() throws SQLException;
    }

    private FenceLockWait() {
    }

    /** Runs {@code statements} on {@code connection} with the lock wait bounded by {@code timeout}. */
    static <T> T run(Connection connection, Database database, Duration timeout, Statements<T> statements)
            throws SQLException {
        return switch (database) {
            case POSTGRESQL -> postgresql(connection, timeout, statements);
            case MARIADB -> session(connection, "SELECT @@SESSION.innodb_lock_wait_timeout",
                    "SET SESSION innodb_lock_wait_timeout = ", wholeSeconds(timeout), statements);
            case H2 -> session(connection, "SELECT LOCK_TIMEOUT()", "SET LOCK_TIMEOUT ",
                    Math.max(1, timeout.toMillis()), statements);
        };
    }

    /** True when {@code e} is the database's "a row lock was not granted within the lock timeout". */
    static boolean isLockTimeout(SQLException e) {
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        return state.equals("55P03") || e.getErrorCode() == MYSQL_LOCK_WAIT_TIMEOUT
                || e.getErrorCode() == H2_LOCK_TIMEOUT
                || (e instanceof SQLTimeoutException && e.getErrorCode() == MYSQL_LOCK_WAIT_TIMEOUT);
    }

    /** InnoDB counts whole seconds: the timeout rounded up, at least one. */
    static long wholeSeconds(Duration timeout) {
        long seconds = timeout.getSeconds() + (timeout.getNano() > 0 ? 1 : 0);
        return Math.max(1, seconds);
    }

    private static <T> T postgresql(Connection connection, Duration timeout, Statements<T> statements)
            throws SQLException {
        String previous;
        try (PreparedStatement set = connection.prepareStatement(
                "SELECT current_setting('lock_timeout'), set_config('lock_timeout', ?, true)")) {
            set.setString(1, Math.max(1, timeout.toMillis()) + "ms");
            try (ResultSet row = set.executeQuery()) {
                row.next();
                previous = row.getString(1);
            }
        }
        T result = statements.run();
        try (PreparedStatement restore = connection.prepareStatement("SELECT set_config('lock_timeout', ?, true)")) {
            restore.setString(1, previous);
            restore.executeQuery().close();
        }
        return result;
    }

    private static <T> T session(Connection connection, String read, String set, long value,
            Statements<T> statements) throws SQLException {
        long previous;
        try (Statement statement = connection.createStatement(); ResultSet row = statement.executeQuery(read)) {
            row.next();
            previous = row.getLong(1);
        }
        try (Statement statement = connection.createStatement()) {
            statement.execute(set + value);
        }
        T result;
        try {
            result = statements.run();
        } catch (SQLException | RuntimeException e) {
            try (Statement statement = connection.createStatement()) {
                statement.execute(set + previous);
            } catch (SQLException restore) {
                e.addSuppressed(restore);
            }
            throw e;
        }
        try (Statement statement = connection.createStatement()) {
            statement.execute(set + previous);
        }
        return result;
    }
}
