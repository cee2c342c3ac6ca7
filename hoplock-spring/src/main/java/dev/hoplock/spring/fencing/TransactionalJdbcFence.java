package dev.hoplock.spring.fencing;

import dev.hoplock.core.fencing.Fence;
import dev.hoplock.core.fencing.FencingException;
import dev.hoplock.jdbc.Database;
import dev.hoplock.jdbc.JdbcFence;
import dev.hoplock.jdbc.JdbcSchema;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Objects;
import java.util.Optional;

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

    /**
     * Looks for the fence table with a connection of its own ({@code SELECT ... WHERE 1 = 0}): a description of the
     * problem, naming the table and the DDL file for the database, when the table does not exist; empty when it
     * exists or when the database cannot be asked now (the first check then reports it).
     */
    public Optional<String> missingTable() {
        try (Connection connection = dataSource.getConnection()) {
            try (Statement statement = connection.createStatement()) {
                statement.executeQuery("SELECT resource, token, updated_at FROM " + table() + " WHERE 1 = 0").close();
                return Optional.empty();
            } catch (SQLException e) {
                String state = String.valueOf(e.getSQLState());
                if (!state.equals("42P01") && !state.equals("42S02")) {
                    return Optional.empty();
                }
                String ddl = Database.of(connection).map(Database::fenceSchemaResource)
                        .orElse(Database.RESOURCE_DIRECTORY + "fence-<database>.sql");
                return Optional.of("The hoplock fence table " + table() + " does not exist, so every @Fenced call"
                        + " would fail. Its DDL for this database is " + ddl + " (inside the hoplock-jdbc jar).");
            }
        } catch (SQLException e) {
            return Optional.empty();
        }
    }

    @Override
    public void check(String resource, long token) {
        check(resource, token, "");
    }

    /** As {@link JdbcFence#check(String, long, String)}: an equal token recorded by another holder is refused. */
    @Override
    public void check(String resource, long token, String holder) {
        Fence.validateResource(resource);
        Fence.validateHolder(holder);
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
            delegate.check(resource, token, holder);
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
