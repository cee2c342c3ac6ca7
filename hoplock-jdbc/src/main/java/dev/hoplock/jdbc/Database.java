package dev.hoplock.jdbc;

import org.jspecify.annotations.Nullable;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Optional;

/**
 * The databases hoplock ships DDL for, recognised from the JDBC metadata of a connection.
 *
 * <p>The lease statements of {@link JdbcBackend} are plain SQL that every one of them runs unchanged; the database
 * matters only for the DDL files, for "is it embedded" ({@link InitializeSchema#EMBEDDED}), and for the fence's
 * upsert ({@link JdbcFence}).
 */
public enum Database {
    /** PostgreSQL 9.5 or later. */
    POSTGRESQL("postgresql"),
    /** MariaDB 10.2 or later, or MySQL 5.7 or later, with InnoDB tables. */
    MARIADB("mariadb"),
    /** H2 2.x. */
    H2("h2");

    /** Where the DDL files live on the class path. */
    public static final String RESOURCE_DIRECTORY = "META-INF/hoplock/jdbc/";

    private final String id;

    Database(String id) {
        this.id = id;
    }

    /** The class-path resource with the lease table's DDL, for example {@code META-INF/hoplock/jdbc/schema-h2.sql}. */
    public String leaseSchemaResource() {
        return RESOURCE_DIRECTORY + "schema-" + id + ".sql";
    }

    /** The class-path resource with the fence table's DDL, for example {@code META-INF/hoplock/jdbc/fence-h2.sql}. */
    public String fenceSchemaResource() {
        return RESOURCE_DIRECTORY + "fence-" + id + ".sql";
    }

    /** Recognises the database behind {@code connection}; empty for any other database. */
    public static Optional<Database> of(Connection connection) throws SQLException {
        return fromProductName(connection.getMetaData().getDatabaseProductName());
    }

    /** Recognises a JDBC {@link DatabaseMetaData#getDatabaseProductName() product name}. */
    static Optional<Database> fromProductName(@Nullable String productName) {
        String name = productName == null ? "" : productName.toLowerCase(Locale.ROOT);
        if (name.contains("postgresql")) {
            return Optional.of(POSTGRESQL);
        }
        if (name.contains("mariadb") || name.contains("mysql")) {
            return Optional.of(MARIADB);
        }
        if (name.equals("h2")) {
            return Optional.of(H2);
        }
        return Optional.empty();
    }

    /**
     * True for a database that lives inside this process: H2 in memory or in a local file (not an H2 server reached
     * over {@code tcp:} or {@code ssl:}). Mirrors what Spring Boot calls embedded.
     */
    static boolean isEmbedded(Connection connection) throws SQLException {
        DatabaseMetaData metaData = connection.getMetaData();
        if (fromProductName(metaData.getDatabaseProductName()).orElse(null) != H2) {
            return false;
        }
        String url = String.valueOf(metaData.getURL()).toLowerCase(Locale.ROOT);
        return !url.startsWith("jdbc:h2:tcp:") && !url.startsWith("jdbc:h2:ssl:");
    }

    /** The DDL files of every supported database, for error messages. */
    static String allLeaseSchemaResources() {
        return POSTGRESQL.leaseSchemaResource() + ", " + MARIADB.leaseSchemaResource() + " or "
                + H2.leaseSchemaResource();
    }
}
