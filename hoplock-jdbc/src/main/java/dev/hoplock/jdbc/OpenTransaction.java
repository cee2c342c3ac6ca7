package dev.hoplock.jdbc;

import dev.hoplock.core.backend.CallBudget;
import org.jspecify.annotations.Nullable;

import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Tells whether a connection handed to hoplock is in the middle of a transaction that someone else started, so that
 * hoplock never commits or rolls back work that is not its own (issue 19, defect 10).
 *
 * <p>Why it is needed: switching a connection from manual commit to autocommit commits its open transaction (JDBC's
 * {@link Connection#setAutoCommit} contract), and closing it, or letting a network timeout close it, rolls it back. A
 * DataSource can hand out such a connection: Spring's {@code TransactionAwareDataSourceProxy} returns the thread's
 * transactional connection, and a pool can return a connection whose previous user left uncommitted work.
 *
 * <p>A connection in autocommit mode has no transaction open in JDBC's model, so it is {@link Answer#NONE_OPEN}
 * without a question to the database (a raw {@code BEGIN} sent on an autocommit connection is outside that model and
 * not detected). For a connection in manual-commit mode the answer is asked of the database, and only a
 * database that can prove "no transaction open" gets {@link Answer#NONE_OPEN}:
 * <ul>
 *   <li>PostgreSQL (pgjdbc): the driver's transaction state from the server's last ReadyForQuery message
 *       ({@code BaseConnection.getTransactionState()}, no round trip): {@code IDLE} is none open; {@code OPEN} and
 *       {@code FAILED} are open. Any statement, a plain {@code SELECT} included, opens one.</li>
 *   <li>MariaDB: {@code SELECT @@in_transaction}, one round trip; a read of any table opens a transaction, the probe
 *       itself does not. MySQL has no such variable: {@link Answer#UNKNOWN}.</li>
 *   <li>H2: {@code CONTAINS_UNCOMMITTED} of the session in {@code INFORMATION_SCHEMA.SESSIONS}. Limit: an H2
 *       transaction that has only read without locking is not seen; committing it changes nothing stored.</li>
 *   <li>Any other database or driver, or a probe that fails: {@link Answer#UNKNOWN}.</li>
 * </ul>
 */
final class OpenTransaction {

    /** What is known about a transaction on a connection. */
    enum Answer {
        /** No transaction is open: hoplock may use the connection and end what it starts. */
        NONE_OPEN,
        /** A transaction someone else started is open: hoplock must not touch the connection's state. */
        OPEN,
        /** The connection is in manual-commit mode and the database cannot say: treated as {@link #OPEN}. */
        UNKNOWN
    }

    private static final String PGJDBC_CONNECTION = "org.postgresql.core.BaseConnection";

    private OpenTransaction() {
    }

    /**
     * Asks about {@code connection}; {@code database} is the one the backend recognised at build time, or null to
     * recognise it from the connection's metadata (asked only of a connection in manual-commit mode).
     */
    static Answer on(Connection connection, @Nullable Database database, CallBudget deadline) throws SQLException {
        if (connection.getAutoCommit()) {
            return Answer.NONE_OPEN;
        }
        Database db = database != null ? database : Database.of(connection).orElse(null);
        if (db == null) {
            return Answer.UNKNOWN;
        }
        try {
            return switch (db) {
                case POSTGRESQL -> postgresql(connection);
                case MARIADB -> flag(connection, deadline, "SELECT @@in_transaction");
                case H2 -> flag(connection, deadline, "SELECT CONTAINS_UNCOMMITTED FROM INFORMATION_SCHEMA.SESSIONS"
                        + " WHERE SESSION_ID = SESSION_ID()");
            };
        } catch (SQLException e) {
            return Answer.UNKNOWN;
        }
    }

    /**
     * Why {@code what} was refused on a connection with {@code answer} (not {@link Answer#NONE_OPEN}), naming the
     * cause and the fix; {@code sent} says what was sent (for the backend: nothing).
     */
    static String refusal(Answer answer, String what, String sent) {
        String cause = answer == Answer.OPEN
                ? "a connection in the middle of another transaction (auto-commit off, a transaction open)"
                : "a connection with auto-commit off, and the database cannot tell whether a transaction is open on it,"
                        + " so hoplock treats it as in the middle of another transaction";
        return "hoplock's DataSource handed the " + what + " " + cause + "; hoplock never commits or rolls back"
                + " work that is not its own (switching to auto-commit would commit it), so " + sent + ". Give hoplock"
                + " a DataSource of its own: a connection pool, not a transaction-aware proxy such as Spring's"
                + " TransactionAwareDataSourceProxy that hands out the current transaction's connection; and make"
                + " sure connections go back to the pool with their transactions ended"
                + (answer == Answer.UNKNOWN ? " (or configure the pool with autoCommit=true)" : "");
    }

    /** The pgjdbc driver's own state, reached through any wrapper (pool proxy, Spring proxy) by {@code unwrap}. */
    private static Answer postgresql(Connection connection) throws SQLException {
        for (ClassLoader loader : loaders(connection)) {
            Class<?> pgjdbc;
            try {
                pgjdbc = Class.forName(PGJDBC_CONNECTION, false, loader);
            } catch (ClassNotFoundException | LinkageError e) {
                continue;
            }
            if (!connection.isWrapperFor(pgjdbc)) {
                continue;
            }
            Object driverConnection = connection.unwrap(pgjdbc);
            try {
                Method state = pgjdbc.getMethod("getTransactionState");
                return "IDLE".equals(String.valueOf(state.invoke(driverConnection))) ? Answer.NONE_OPEN : Answer.OPEN;
            } catch (ReflectiveOperationException | RuntimeException e) {
                return Answer.UNKNOWN;
            }
        }
        return Answer.UNKNOWN;
    }

    private static Set<ClassLoader> loaders(Connection connection) {
        Set<ClassLoader> loaders = new LinkedHashSet<>();
        for (ClassLoader loader : new ClassLoader[] {connection.getClass().getClassLoader(),
                Thread.currentThread().getContextClassLoader(), OpenTransaction.class.getClassLoader()}) {
            if (loader != null) {
                loaders.add(loader);
            }
        }
        return loaders;
    }

    /** A one-row, one-column query whose boolean answer is true when a transaction is open. */
    private static Answer flag(Connection connection, CallBudget deadline, String sql) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(sql)) {
            JdbcBounds.boundStatement(query, deadline);
            try (ResultSet row = query.executeQuery()) {
                if (!row.next()) {
                    return Answer.UNKNOWN;
                }
                boolean open = row.getBoolean(1);
                return row.wasNull() ? Answer.UNKNOWN : open ? Answer.OPEN : Answer.NONE_OPEN;
            }
        }
    }
}
