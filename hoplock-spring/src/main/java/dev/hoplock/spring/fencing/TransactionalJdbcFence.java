package dev.hoplock.spring.fencing;

import dev.hoplock.core.fencing.Fence;
import dev.hoplock.core.fencing.FencingException;
import dev.hoplock.jdbc.JdbcFence;
import dev.hoplock.jdbc.JdbcSchema;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Objects;

/**
 * The {@link JdbcFence} on the connection of the current Spring-managed transaction: {@link #check} takes the
 * connection Spring bound to the transaction for the DataSource ({@link DataSourceUtils#getConnection}: the one
 * {@code JdbcTemplate}, {@code JdbcClient} and, with a {@code JpaTransactionManager}, Hibernate use), so the fence row
 * and the caller's writes commit or roll back together. Use it directly in any {@code @Transactional} method or
 * {@code TransactionTemplate}:
 * <pre>{@code
 * fence.check("invoices", lease.generation());   // StaleTokenException: the transaction rolls back
 * }</pre>
 *
 * <p>Guarantees: those of {@link JdbcFence}, plus: without an active Spring transaction it refuses with
 * {@link FencingException} before borrowing a connection (an autocommit check would protect nothing); it never
 * commits, rolls back or closes the transaction's connection. With a transaction manager over another resource (a JTA
 * or another DataSource), the connection it gets is in autocommit mode and {@link JdbcFence} refuses it. Thread-safe.
 */
public final class TransactionalJdbcFence implements Fence {

    private final DataSource dataSource;
    /** The connection the running check borrowed, for the delegate (which caches the database it recognised). */
    private final ThreadLocal<Connection> borrowed = new ThreadLocal<>();
    private final JdbcFence delegate;

    /** A fence over {@code table} (validated: an unquoted, optionally schema-qualified identifier). */
    public TransactionalJdbcFence(DataSource dataSource, String table) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.delegate = JdbcFence.forCurrentConnection(borrowed::get).table(table);
    }

    /** A fence over the default table {@value JdbcSchema#DEFAULT_FENCE_TABLE}. */
    public TransactionalJdbcFence(DataSource dataSource) {
        this(dataSource, JdbcSchema.DEFAULT_FENCE_TABLE);
    }

    /** The fence table, as used in SQL. */
    public String table() {
        return delegate.table();
    }

    @Override
    public void check(String resource, long token) {
        Fence.validateResource(resource);
        if (!TransactionSynchronizationManager.isActualTransactionActive()) {
            throw new FencingException(resource, "the fence check for '" + resource + "' must run inside a Spring"
                    + " transaction (@Transactional or TransactionTemplate), so that the fence row stays locked until"
                    + " the writes it protects commit; no transaction is active on this thread", null);
        }
        Connection connection;
        try {
            connection = DataSourceUtils.getConnection(dataSource);
        } catch (CannotGetJdbcConnectionException e) {
            Throwable cause = e.getCause();
            String state = cause instanceof SQLException sql && sql.getSQLState() != null ? sql.getSQLState() : "none";
            throw new FencingException(resource, "cannot get the transaction's connection for the fence check of '"
                    + resource + "' (SQLState " + state + "); the write must not proceed", e);
        }
        Connection outer = borrowed.get();
        borrowed.set(connection);
        try {
            delegate.check(resource, token);
        } finally {
            if (outer == null) {
                borrowed.remove();
            } else {
                borrowed.set(outer);
            }
            DataSourceUtils.releaseConnection(connection, dataSource);
        }
    }
}
