package dev.hoplock.jdbc;

import dev.hoplock.core.backend.CallBudget;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.concurrent.Executor;

/**
 * The one place that bounds JDBC work by a call's {@link CallBudget}.
 *
 * <p>Two bounds, because neither is enough alone:
 * <ul>
 *   <li>{@link Connection#setNetworkTimeout} with the milliseconds left: the driver stops waiting for the server at
 *       the deadline, to the millisecond, and closes the connection (PostgreSQL and MariaDB drivers: a socket read
 *       timeout, reported as SQLState class 08). This is what keeps a call within a sub-second budget;
 *       {@code JdbcBackendTest} shows it ending a statement stuck on a row lock after 600 ms.</li>
 *   <li>{@link Statement#setQueryTimeout} with the seconds left, rounded <em>up</em> (JDBC counts whole seconds): the
 *       bound for a driver without network timeouts (H2 in process), and on MariaDB a server-side
 *       {@code max_statement_time}, so that a statement stuck on a lock stops on the server too.</li>
 * </ul>
 * We chose the network timeout over running each call on an extra thread and abandoning it at the deadline: the
 * elector already abandons calls at its deadline, so the backend's job is to free its thread and connection
 * promptly, which only the driver can do; an extra thread per call would add a hand-off to every request and leave
 * the abandoned statement running on a connection still counted as busy.
 *
 * <p>What no client-side bound can do: stop the server. PostgreSQL's driver implements the query timeout by sending
 * a cancel request from the client, which does not happen once the network timeout has closed the connection; a
 * write that waited on a lock may then still commit after the client gave up. That is why a timed-out write is an
 * <em>unknown</em> outcome: the elector anchors a term's validity before sending the write and settles the outcome
 * by a later read, so a late commit never extends a term. Borrowing a connection from a pool is bounded by the
 * pool's own connection timeout: set it no longer than the elector's request timeout. Work that finds no time left
 * sends nothing.
 */
final class JdbcBounds {

    /** The driver needs an executor for network timeouts; none of the supported drivers runs anything on it. */
    private static final Executor DIRECT = Runnable::run;

    private JdbcBounds() {
    }

    /**
     * Bounds the driver's waits on {@code connection} by the time left and returns the previous network timeout (to
     * restore), or -1 when the driver has no network timeout.
     */
    static int boundNetwork(Connection connection, CallBudget budget) throws SQLException {
        int previous;
        try {
            previous = connection.getNetworkTimeout();
        } catch (SQLFeatureNotSupportedException | UnsupportedOperationException e) {
            return -1;
        }
        connection.setNetworkTimeout(DIRECT, (int) Math.min(Integer.MAX_VALUE, Math.max(1, budget.millisLeft())));
        return previous;
    }

    /** Restores a network timeout saved by {@link #boundNetwork}. */
    static void restoreNetwork(Connection connection, int previous) throws SQLException {
        if (previous >= 0) {
            connection.setNetworkTimeout(DIRECT, previous);
        }
    }

    /** Bounds {@code statement} on the server by the time left, rounded up to whole seconds (at least 1). */
    static void boundStatement(Statement statement, CallBudget budget) throws SQLException {
        long seconds = Math.max(1, (budget.millisLeft() + 999) / 1000);
        statement.setQueryTimeout((int) Math.min(Integer.MAX_VALUE, seconds));
    }
}
