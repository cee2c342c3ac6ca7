package dev.hoplock.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.Handle;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import javax.sql.DataSource;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Issue 19, defect 10: the JDBC store never commits, or rolls back, work that is not its own.
 *
 * <p>The application's connection is handed to the store in the middle of the application's transaction, as a
 * transaction-aware DataSource does (Spring's {@code TransactionAwareDataSourceProxy} returns the thread's
 * transactional connection; {@link SingleConnectionDataSource} behaves the same: one connection, {@code close()} a
 * no-op). Before the fix the store switched the connection to autocommit, which commits the open transaction, so the
 * application's row survived the application's rollback.
 */
class ForeignTransactionTest {

    private static final Map<TestDatabase, HikariDataSource> POOLS = new EnumMap<>(TestDatabase.class);
    private static final String LEASES = TestDatabase.uniqueTable("hoplock_foreign");
    private static final String APP = TestDatabase.uniqueTable("app_orders");

    @BeforeAll
    static void createTables() throws Exception {
        for (TestDatabase database : TestDatabase.values()) {
            HikariDataSource pool = database.pool(2);
            POOLS.put(database, pool);
            JdbcSchema.initializeLeaseTable(pool, LEASES, InitializeSchema.ALWAYS);
            try (Connection connection = pool.getConnection(); Statement ddl = connection.createStatement()) {
                ddl.execute("CREATE TABLE " + APP + " (id VARCHAR(64) PRIMARY KEY)");
            }
        }
    }

    @AfterAll
    static void dropTables() throws Exception {
        for (Map.Entry<TestDatabase, HikariDataSource> pool : POOLS.entrySet()) {
            pool.getKey().dropTable(pool.getValue(), LEASES);
            pool.getKey().dropTable(pool.getValue(), APP);
            pool.getValue().close();
        }
    }

    /** A store read on the application's connection mid-transaction must leave the transaction to the application. */
    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void aReadOnTheApplicationsOpenTransactionDoesNotCommitIt(TestDatabase database) throws Exception {
        String row = "read-" + database;
        try (Connection app = openTransactionWith(database, row)) {
            JdbcBackend store = unverifiedStore(new SingleConnectionDataSource(app));

            Throwable thrown = catchThrowable(() -> store.read("foreign/read", Duration.ofSeconds(5)));

            assertThat(app.getAutoCommit()).as("the application's connection is still in its transaction").isFalse();
            app.rollback();
            assertThat(exists(database, row)).as("the application rolled back its row after the store's call on the"
                    + " same connection; the store must not have committed it (store's outcome: %s)", thrown)
                    .isFalse();
            assertRefusedNamingTheFix(thrown);
        }
    }

    /** The same for a write: the lease row must not ride along in (or commit) the application's transaction. */
    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void aWriteOnTheApplicationsOpenTransactionDoesNotCommitIt(TestDatabase database) throws Exception {
        String row = "write-" + database;
        String key = "foreign/write-" + database;
        try (Connection app = openTransactionWith(database, row)) {
            JdbcBackend store = unverifiedStore(new SingleConnectionDataSource(app));

            Throwable thrown = catchThrowable(() -> store.write(key, Handle.NONE, bytes("lease"),
                    Duration.ofSeconds(5)));

            app.rollback();
            assertThat(exists(database, row)).as("the application's rolled-back row (store's outcome: %s)", thrown)
                    .isFalse();
            assertRefusedNamingTheFix(thrown);
            assertThat(unverifiedStore(pool(database)).read(key, Duration.ofSeconds(5)))
                    .as("nothing was sent: no lease row").isEmpty();
        }
    }

    /**
     * A transaction that has only read (with a row lock) is someone else's work too: committing it would release the
     * application's lock and end its snapshot.
     */
    @ParameterizedTest
    @EnumSource(value = TestDatabase.class, names = {"POSTGRESQL", "MARIADB"})
    void aTransactionThatOnlyReadIsNotCommittedEither(TestDatabase database) throws Exception {
        try (Connection app = database.connect()) {
            app.setAutoCommit(false);
            try (Statement read = app.createStatement(); ResultSet rows = read.executeQuery("SELECT id FROM " + APP)) {
                rows.next();
            }
            JdbcBackend store = unverifiedStore(new SingleConnectionDataSource(app));

            assertRefusedNamingTheFix(catchThrowable(() -> store.read("foreign/reader", Duration.ofSeconds(5))));
            app.rollback();
        }
    }

    /** Schema creation on the application's open transaction is refused before any DDL (DDL commits on MariaDB). */
    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void schemaCreationOnTheApplicationsOpenTransactionDoesNotCommitIt(TestDatabase database) throws Exception {
        String row = "ddl-" + database;
        try (Connection app = openTransactionWith(database, row)) {

            Throwable thrown = catchThrowable(() -> JdbcSchema.initializeLeaseTable(
                    new SingleConnectionDataSource(app), LEASES, InitializeSchema.ALWAYS));

            app.rollback();
            assertThat(exists(database, row)).as("the application's rolled-back row (schema outcome: %s)", thrown)
                    .isFalse();
            assertThat(thrown).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("in the middle of another transaction")
                    .hasMessageContaining("DataSource of its own");
        }
    }

    /**
     * A pool configured {@code autoCommit=false} (a common HikariCP setting) still works: a connection with no
     * transaction open is the store's to use, its write is committed, and the connection goes back in manual-commit
     * mode.
     */
    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void aManualCommitPoolWithNoOpenTransactionIsUsedAndLeftInManualCommit(TestDatabase database) throws Exception {
        String key = "foreign/manual-pool-" + database;
        try (HikariDataSource manual = database.pool(1, false)) {
            JdbcBackend store = JdbcBackend.builder(manual).table(LEASES).build();

            store.write(key, Handle.NONE, bytes("lease"), Duration.ofSeconds(5));

            assertThat(unverifiedStore(pool(database)).read(key, Duration.ofSeconds(5)))
                    .as("committed, visible to another connection").isPresent();
            try (Connection connection = manual.getConnection()) {
                assertThat(connection.getAutoCommit()).isFalse();
            }
        }
    }

    /** The application's own transaction, once ended, leaves the connection usable by the store again. */
    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void aConnectionWhoseTransactionEndedIsUsedAgain(TestDatabase database) throws Exception {
        String row = "ended-" + database;
        try (Connection app = openTransactionWith(database, row)) {
            app.commit();
            JdbcBackend store = unverifiedStore(new SingleConnectionDataSource(app));

            assertThat(store.read("foreign/ended", Duration.ofSeconds(5))).isEmpty();

            insert(app, row + "-2");
            app.rollback();
            assertThat(exists(database, row + "-2")).as("the store left manual commit in place").isFalse();
            assertThat(exists(database, row)).isTrue();
        }
    }

    private static void assertRefusedNamingTheFix(Throwable thrown) {
        assertThat(thrown).as("the store refuses a connection in the middle of another transaction")
                .isInstanceOfSatisfying(BackendException.class, e -> {
                    assertThat(e.kind()).isEqualTo(BackendException.Kind.MISCONFIGURED);
                    assertThat(e.getMessage()).contains("in the middle of another transaction")
                            .contains("nothing was sent").contains("DataSource of its own")
                            .contains("TransactionAwareDataSourceProxy");
                });
    }

    private static JdbcBackend unverifiedStore(DataSource dataSource) throws BackendException {
        return JdbcBackend.builder(dataSource).table(LEASES).initializeSchema(InitializeSchema.NEVER).verify(false)
                .build();
    }

    /** The application's connection, in manual commit, with an open transaction that inserted {@code row}. */
    private static Connection openTransactionWith(TestDatabase database, String row) throws SQLException {
        Connection app = database.connect();
        try {
            app.setAutoCommit(false);
            insert(app, row);
            return app;
        } catch (SQLException | RuntimeException e) {
            app.close();
            throw e;
        }
    }

    private static void insert(Connection connection, String id) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO " + APP + " (id) VALUES (?)")) {
            insert.setString(1, id);
            insert.executeUpdate();
        }
    }

    private static boolean exists(TestDatabase database, String id) throws SQLException {
        try (Connection observer = pool(database).getConnection();
             PreparedStatement select = observer.prepareStatement("SELECT 1 FROM " + APP + " WHERE id = ?")) {
            select.setString(1, id);
            try (ResultSet row = select.executeQuery()) {
                return row.next();
            }
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static HikariDataSource pool(TestDatabase database) {
        return Objects.requireNonNull(POOLS.get(database), () -> "no pool for " + database);
    }
}
