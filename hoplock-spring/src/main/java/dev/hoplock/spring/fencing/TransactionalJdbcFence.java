package dev.hoplock.spring.fencing;

import dev.hoplock.core.fencing.Fence;
import dev.hoplock.core.fencing.FencingException;
import dev.hoplock.jdbc.Database;
import dev.hoplock.jdbc.JdbcFence;
import dev.hoplock.jdbc.JdbcSchema;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.jdbc.datasource.TransactionAwareDataSourceProxy;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
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
 * <p>Guarantees: those of {@link JdbcFence} (among them the bounded wait for the fence row's lock,
 * {@link #lockTimeout()}), plus:
 * <ul>
 *   <li>without an active Spring transaction it refuses with {@link FencingException} before borrowing a connection
 *       (an autocommit check would protect nothing);</li>
 *   <li>it refuses, the same way, when a transaction is active but none is bound for <em>its</em> DataSource at the
 *       moment of the check (no connection holder of that DataSource in {@link TransactionSynchronizationManager}):
 *       the transaction manager runs the transaction on another resource (another DataSource, JTA), and a connection
 *       borrowed now would be in no transaction that commits with the caller's writes. This is what stops a pool
 *       configured {@code autoCommit=false} from fencing nothing: its connection passes the autocommit test, nobody
 *       commits it, the pool rolls the fence row back, and the writes commit unchecked;</li>
 *   <li>it never commits, rolls back or closes the transaction's connection.</li>
 * </ul>
 * What it cannot tell apart at call time: a connection of its DataSource that an earlier statement of the same
 * foreign transaction borrowed through {@link DataSourceUtils} (Spring then binds one outside any transaction). For
 * {@code @Fenced} methods the start-up validator closes that case: it refuses a method whose transaction manager does
 * not run on {@link #dataSource()}. Thread-safe.
 */
public final class TransactionalJdbcFence implements DataSourceFence {

    private final DataSource dataSource;
    /** The connection the running check borrowed, for the delegate (which caches the database it recognised). */
    private final ThreadLocal<Connection> borrowed = new ThreadLocal<>();
    private final JdbcFence delegate;

    /**
     * A fence over {@code table} (validated: an unquoted, optionally schema-qualified identifier) in the transactions
     * of {@code dataSource} (a {@link TransactionAwareDataSourceProxy} is unwrapped, as Spring's transaction managers
     * unwrap it).
     */
    public TransactionalJdbcFence(DataSource dataSource, String table) {
        this(dataSource, table, JdbcFence.DEFAULT_LOCK_TIMEOUT);
    }

    /**
     * A fence over {@code table} whose check waits at most {@code lockTimeout} for the fence row's lock (see
     * {@link JdbcFence#lockTimeout(Duration)}: a check that waits it out fails with
     * {@link dev.hoplock.jdbc.FenceLockTimeoutException}).
     *
     * @throws IllegalArgumentException when the table is not a valid identifier or the timeout is below 1ms
     */
    public TransactionalJdbcFence(DataSource dataSource, String table, Duration lockTimeout) {
        this.dataSource = unwrap(Objects.requireNonNull(dataSource, "dataSource"));
        this.delegate = JdbcFence.forCurrentConnection(borrowed::get).table(table).lockTimeout(lockTimeout);
    }

    /** The bound on the check's wait for the fence row's lock. */
    public Duration lockTimeout() {
        return delegate.lockTimeout();
    }

    /** A fence over the default table {@value JdbcSchema#DEFAULT_FENCE_TABLE}. */
    public TransactionalJdbcFence(DataSource dataSource) {
        this(dataSource, JdbcSchema.DEFAULT_FENCE_TABLE);
    }

    private static DataSource unwrap(DataSource dataSource) {
        if (dataSource instanceof TransactionAwareDataSourceProxy proxy) {
            DataSource target = proxy.getTargetDataSource();
            return target == null ? dataSource : target;
        }
        return dataSource;
    }

    @Override
    public DataSource dataSource() {
        return dataSource;
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
        if (!TransactionSynchronizationManager.hasResource(dataSource)) {
            throw new FencingException(resource, "the fence check for '" + resource + "' found no Spring transaction"
                    + " of its DataSource: a transaction is active on this thread, but its transaction manager runs it"
                    + " on another resource (another DataSource, or JTA), so a connection borrowed now would be in no"
                    + " transaction that commits or rolls back with the writes it protects. Run the check in a"
                    + " transaction of the fence's DataSource (a JdbcTransactionManager, DataSourceTransactionManager"
                    + " or JpaTransactionManager over it), or point the fence at your transaction manager's DataSource"
                    + " (hoplock.fence.data-source). The write must not proceed", null);
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
