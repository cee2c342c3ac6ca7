package dev.hoplock.spring.autoconfigure.jdbc;

import dev.hoplock.core.InvalidSettingException;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.jdbc.Database;
import dev.hoplock.jdbc.InitializeSchema;
import dev.hoplock.jdbc.JdbcBackend;
import dev.hoplock.jdbc.JdbcBackendBuilder;
import dev.hoplock.spring.HoplockConfigurationException;
import dev.hoplock.spring.autoconfigure.HoplockProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;

/**
 * Builds the {@link JdbcBackend} from {@code hoplock.jdbc.*}: creates the table when the mode asks for it and checks
 * that it exists. A missing table, refused credentials or privileges, or an invalid setting fail the start naming the
 * property (and, for a missing table, the table and the DDL resource for the database found); a database that cannot
 * be reached at start-up does not: the backend is then built unchecked, and each elector verifies the store before it
 * campaigns (and health reports it). No message contains a URL or a password.
 */
final class JdbcBackends {

    private static final Logger log = LoggerFactory.getLogger(JdbcBackends.class);

    private JdbcBackends() {
    }

    static JdbcBackend create(JdbcProperties settings, DataSources.Chosen chosen) {
        JdbcBackendBuilder builder = JdbcBackend.builder(chosen.dataSource())
                .table(settings.getTable())
                .requestTimeout(settings.getRequestTimeout())
                .initializeSchema(mode(settings.getInitializeSchema()));
        try {
            JdbcBackend backend = builder.build();
            log.info("hoplock: JDBC store {} through DataSource '{}'", backend.describe(), chosen.name());
            return backend;
        } catch (InvalidSettingException e) {
            // The property from the exception's setting field, never from its message.
            String property = e.setting().equals("requestTimeout") ? "hoplock.jdbc.request-timeout"
                    : "hoplock.jdbc.table";
            throw new HoplockConfigurationException(property, "Cannot configure the JDBC store (" + property + "): "
                    + e.getMessage() + ".", "Fix " + property + ".", e);
        } catch (IllegalArgumentException e) {
            throw new HoplockConfigurationException("hoplock.jdbc", "Cannot configure the JDBC store: "
                    + e.getMessage() + ".", "Fix hoplock.jdbc.", e);
        } catch (BackendException e) {
            return answer(e, settings, chosen, builder);
        }
    }

    private static JdbcBackend answer(BackendException e, JdbcProperties settings, DataSources.Chosen chosen,
            JdbcBackendBuilder builder) {
        String source = "DataSource '" + chosen.name() + "'";
        switch (e.kind()) {
            case MISSING_CONTAINER -> {
                String ddl = database(chosen.dataSource()).map(Database::leaseSchemaResource)
                        .orElse("META-INF/hoplock/jdbc/schema-<database>.sql");
                String mode = settings.getInitializeSchema().name().toLowerCase(java.util.Locale.ROOT);
                throw new HoplockConfigurationException("hoplock.jdbc.table", "The hoplock lease table "
                        + settings.getTable() + " (hoplock.jdbc.table) does not exist in the database of " + source
                        + ", and hoplock.jdbc.initialize-schema is " + mode + ", so hoplock did not create it. Its DDL"
                        + " for this database is " + ddl + ".",
                        "Create the table with the DDL in " + ddl + " (inside the hoplock-jdbc jar; your migration"
                                + " tool can run it, JdbcSchema.leaseTableDdl returns it with your table name), or set"
                                + " hoplock.jdbc.initialize-schema=always to let hoplock create it at start-up.", e);
            }
            case ACCESS_DENIED -> throw new HoplockConfigurationException("hoplock.jdbc.data-source",
                    "The database refused hoplock's JDBC store through " + source + ": " + e.getMessage() + ".",
                    "Check the user name and password of the DataSource (spring.datasource.username and"
                            + " spring.datasource.password for Boot's), and grant that user SELECT, INSERT, UPDATE"
                            + " and DELETE on " + settings.getTable() + ".", e);
            case MISCONFIGURED -> throw new HoplockConfigurationException(null,
                    "The JDBC store cannot use " + source + ": " + e.getMessage() + ".",
                    "Fix the DataSource or the table, or create the table yourself from the DDL in"
                            + " META-INF/hoplock/jdbc/ and set hoplock.jdbc.initialize-schema=never.", e);
            default -> {
                log.warn("hoplock: the JDBC store could not check table {} at start-up ({}); the table was neither"
                        + " created nor checked now: each election verifies it before campaigning", settings.getTable(),
                        e.getMessage());
                try {
                    return builder.verify(false).initializeSchema(InitializeSchema.NEVER).build();
                } catch (BackendException unexpected) {
                    throw new IllegalStateException("an unverified JDBC store contacts nothing", unexpected);
                }
            }
        }
    }

    static InitializeSchema mode(HoplockProperties.SchemaInitialization mode) {
        return switch (mode) {
            case EMBEDDED -> InitializeSchema.EMBEDDED;
            case ALWAYS -> InitializeSchema.ALWAYS;
            case NEVER -> InitializeSchema.NEVER;
        };
    }

    /** The database behind {@code dataSource}, if it can be asked and is one hoplock ships DDL for. */
    static Optional<Database> database(DataSource dataSource) {
        try (Connection connection = dataSource.getConnection()) {
            return Database.of(connection);
        } catch (SQLException e) {
            return Optional.empty();
        }
    }
}
