package dev.hoplock.jdbc;

import dev.hoplock.core.backend.CallBudget;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The shipped DDL of the lease and fence tables, and their optional creation at start-up (pure JDBC).
 *
 * <p>Guarantees: creation runs only the shipped {@code CREATE TABLE IF NOT EXISTS} statements, with the default table
 * name ({@value #DEFAULT_LEASE_TABLE} or {@value #DEFAULT_FENCE_TABLE}) replaced by the configured one, so an existing
 * table is never changed or dropped. An unsupported database is refused with a message listing the supported ones.
 * A connection in the middle of someone else's transaction is refused before any DDL (DDL and the switch to
 * auto-commit would commit that transaction), see {@link OpenTransaction}.
 */
public final class JdbcSchema {

    /** The lease table's name in the shipped DDL and the backend's default. */
    public static final String DEFAULT_LEASE_TABLE = "hoplock_lease";
    /** The fence table's name in the shipped DDL and the fence's default. */
    public static final String DEFAULT_FENCE_TABLE = "hoplock_fence";

    private static final Logger log = LoggerFactory.getLogger(JdbcSchema.class);

    private JdbcSchema() {
    }

    /**
     * Creates the lease table {@code table} if {@code mode} asks for it on this database and it does not exist.
     *
     * @return true when the DDL ran
     * @throws SQLException             when the database refused the DDL
     * @throws IllegalArgumentException for an invalid table name
     * @throws IllegalStateException    for a database hoplock has no DDL for, or when the DataSource hands out a
     *                                  connection in the middle of another transaction (nothing is run then)
     */
    public static boolean initializeLeaseTable(DataSource dataSource, String table, InitializeSchema mode)
            throws SQLException {
        return initialize(dataSource, new TableName(table), mode, true);
    }

    /** Like {@link #initializeLeaseTable}, for the fence table of {@link JdbcFence}. */
    public static boolean initializeFenceTable(DataSource dataSource, String table, InitializeSchema mode)
            throws SQLException {
        return initialize(dataSource, new TableName(table), mode, false);
    }

    /** The lease table's DDL for {@code database}, with {@code table} as the table name. */
    public static String leaseTableDdl(Database database, String table) {
        return new TableName(table).applyTo(load(database.leaseSchemaResource()), DEFAULT_LEASE_TABLE);
    }

    /** The fence table's DDL for {@code database}, with {@code table} as the table name. */
    public static String fenceTableDdl(Database database, String table) {
        return new TableName(table).applyTo(load(database.fenceSchemaResource()), DEFAULT_FENCE_TABLE);
    }

    private static boolean initialize(DataSource dataSource, TableName table, InitializeSchema mode, boolean lease)
            throws SQLException {
        Objects.requireNonNull(dataSource, "dataSource");
        Objects.requireNonNull(mode, "mode");
        if (mode == InitializeSchema.NEVER) {
            return false;
        }
        try (Connection connection = dataSource.getConnection()) {
            if (mode == InitializeSchema.EMBEDDED && !Database.isEmbedded(connection)) {
                return false;
            }
            Database database = supported(connection);
            OpenTransaction.Answer open = OpenTransaction.on(connection, database,
                    CallBudget.of(JdbcBackend.DEFAULT_REQUEST_TIMEOUT));
            if (open != OpenTransaction.Answer.NONE_OPEN) {
                throw new IllegalStateException(OpenTransaction.refusal(open, "creation of table " + table,
                        "no DDL was run"));
            }
            String ddl = lease ? leaseTableDdl(database, table.value()) : fenceTableDdl(database, table.value());
            boolean autoCommit = connection.getAutoCommit();
            connection.setAutoCommit(true);
            try (Statement statement = connection.createStatement()) {
                for (String sql : statements(ddl)) {
                    statement.execute(sql);
                }
            } finally {
                connection.setAutoCommit(autoCommit);
            }
            log.info("hoplock: ensured table {} exists ({} DDL from {})", table, database,
                    lease ? database.leaseSchemaResource() : database.fenceSchemaResource());
            return true;
        }
    }

    /** The database behind {@code connection}, or an exception naming the supported ones. */
    static Database supported(Connection connection) throws SQLException {
        String product = connection.getMetaData().getDatabaseProductName();
        return Database.fromProductName(product).orElseThrow(() -> new IllegalStateException("hoplock ships DDL for"
                + " PostgreSQL, MariaDB/MySQL and H2, not for " + product + "; create the table yourself, modelled on "
                + Database.allLeaseSchemaResources()));
    }

    /** The statements of a DDL file: comment lines dropped, split at semicolons that end a line. */
    static List<String> statements(String ddl) {
        List<String> statements = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : ddl.split("\n")) {
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("--")) {
                continue;
            }
            if (trimmed.endsWith(";")) {
                current.append(trimmed, 0, trimmed.length() - 1);
                statements.add(current.toString().strip());
                current.setLength(0);
            } else {
                current.append(trimmed).append('\n');
            }
        }
        if (!current.toString().isBlank()) {
            statements.add(current.toString().strip());
        }
        return statements;
    }

    private static String load(String resource) {
        try (InputStream in = JdbcSchema.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("the hoplock-jdbc jar lacks " + resource + "; is the jar complete?");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }
}
