package dev.hoplock.jdbc;

import dev.hoplock.core.InvalidSettingException;
import dev.hoplock.core.backend.BackendException;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Configures a {@link JdbcBackend}: the DataSource, the table, the request timeout, whether to create the table, and
 * whether to check it at build time.
 *
 * <p>Guarantees: {@link #build()} validates every setting before it contacts the database; then, unless switched
 * off, it connects once to recognise the database, creates the table if {@link #initializeSchema} asks for it, and
 * {@linkplain JdbcBackend#verify() verifies} the table, so that a missing table is reported at start-up naming the
 * table and the DDL file rather than at the first election. Not thread-safe; use it from one thread, then discard it.
 */
public final class JdbcBackendBuilder {

    private final DataSource dataSource;
    private String table = JdbcSchema.DEFAULT_LEASE_TABLE;
    private Duration requestTimeout = JdbcBackend.DEFAULT_REQUEST_TIMEOUT;
    private InitializeSchema initializeSchema = InitializeSchema.EMBEDDED;
    private boolean verify = true;

    JdbcBackendBuilder(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    }

    /**
     * The table that holds the leases (default {@value JdbcSchema#DEFAULT_LEASE_TABLE}): an unquoted identifier,
     * optionally schema-qualified ({@code ops.hoplock_lease}).
     */
    public JdbcBackendBuilder table(String table) {
        this.table = table;
        return this;
    }

    /**
     * The longest one backend call may take (default 10 s). The elector's own, usually shorter, budget for a call
     * (the lease time left) applies within this cap.
     */
    public JdbcBackendBuilder requestTimeout(Duration requestTimeout) {
        this.requestTimeout = requestTimeout;
        return this;
    }

    /**
     * When {@link #build()} creates the table from the shipped DDL (default {@link InitializeSchema#EMBEDDED}: only
     * for H2 in memory or in a file; production databases get theirs from a migration tool or a DBA).
     */
    public JdbcBackendBuilder initializeSchema(InitializeSchema initializeSchema) {
        this.initializeSchema = initializeSchema;
        return this;
    }

    /** Whether {@link #build()} verifies the table (default true). */
    public JdbcBackendBuilder verify(boolean verify) {
        this.verify = verify;
        return this;
    }

    /**
     * Creates the backend; unless both schema initialisation and verification are off, connects once to recognise
     * the database, create the table if asked, and verify it.
     *
     * @throws InvalidSettingException when a setting is invalid; its {@link InvalidSettingException#setting()
     *                                  setting} is {@code table} or {@code requestTimeout}
     * @throws BackendException         when the table is missing ({@link BackendException.Kind#MISSING_CONTAINER},
     *                                  naming the table and the DDL file), the DDL failed, or the database cannot be
     *                                  asked
     */
    public JdbcBackend build() throws BackendException {
        TableName tableName;
        try {
            tableName = new TableName(Objects.requireNonNull(table, "table"));
        } catch (IllegalArgumentException e) {
            throw new InvalidSettingException("table", table, null, "is not a table name hoplock can use unquoted",
                    String.valueOf(e.getMessage()));
        }
        Objects.requireNonNull(initializeSchema, "initializeSchema");
        if (requestTimeout == null || requestTimeout.isZero() || requestTimeout.isNegative()) {
            throw new InvalidSettingException("requestTimeout", requestTimeout, Duration.ZERO, "must be positive",
                    "requestTimeout must be positive, was " + requestTimeout);
        }
        if (!verify && initializeSchema == InitializeSchema.NEVER) {
            return new JdbcBackend(dataSource, tableName, requestTimeout, Optional.empty());
        }
        Optional<Database> database = recognise(tableName);
        if (initializeSchema != InitializeSchema.NEVER) {
            try {
                JdbcSchema.initializeLeaseTable(dataSource, tableName.value(), initializeSchema);
            } catch (SQLException e) {
                throw new BackendException(BackendException.Kind.MISCONFIGURED, "creating hoplock table " + tableName
                        + " failed (SQLState " + e.getSQLState() + "): " + SqlErrors.clean(e) + "; create it yourself"
                        + " from " + database.map(Database::leaseSchemaResource)
                        .orElse(Database.allLeaseSchemaResources()) + " or grant the right to create tables", e);
            } catch (IllegalStateException e) {
                throw new BackendException(BackendException.Kind.MISCONFIGURED,
                        Objects.requireNonNull(e.getMessage(), "JdbcSchema states why"), e);
            }
        }
        JdbcBackend backend = new JdbcBackend(dataSource, tableName, requestTimeout, database);
        if (verify) {
            backend.verify();
        }
        return backend;
    }

    private Optional<Database> recognise(TableName tableName) throws BackendException {
        try (Connection connection = dataSource.getConnection()) {
            return Database.of(connection);
        } catch (SQLException e) {
            throw new SqlErrors(tableName, Database.allLeaseSchemaResources()).connecting(e);
        }
    }
}
