package dev.hoplock.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.WriteResult;
import org.h2.jdbcx.JdbcDataSource;
import dev.hoplock.core.InvalidSettingException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.mariadb.jdbc.MariaDbDataSource;
import org.postgresql.ds.PGSimpleDataSource;

import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What the contract suite does not cover: start-up verification and schema creation, error translation with real
 * servers (missing table, wrong credentials, unreachable server), and the deadline of a statement stuck on a row lock.
 */
class JdbcBackendTest {

    private static final Map<TestDatabase, HikariDataSource> POOLS = new EnumMap<>(TestDatabase.class);
    private static final String TABLE = TestDatabase.uniqueTable("hoplock_backend");

    @BeforeAll
    static void openPools() throws Exception {
        for (TestDatabase database : TestDatabase.values()) {
            POOLS.put(database, database.pool(4));
            JdbcSchema.initializeLeaseTable(pool(database), TABLE, InitializeSchema.ALWAYS);
        }
    }

    @AfterAll
    static void closePools() throws Exception {
        for (Map.Entry<TestDatabase, HikariDataSource> pool : POOLS.entrySet()) {
            pool.getKey().dropTable(pool.getValue(), TABLE);
            pool.getValue().close();
        }
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void aMissingTableIsReportedAtBuildNamingTheTableAndTheDdlFile(TestDatabase database) {
        String missing = TestDatabase.uniqueTable("hoplock_missing");

        assertThatThrownBy(() -> JdbcBackend.builder(pool(database)).table(missing)
                .initializeSchema(InitializeSchema.NEVER).build())
                .isInstanceOfSatisfying(BackendException.class, e -> {
                    assertThat(e.kind()).isEqualTo(BackendException.Kind.MISSING_CONTAINER);
                    assertThat(e.getMessage()).contains(missing)
                            .contains("META-INF/hoplock/jdbc/schema-" + database.name().toLowerCase() + ".sql")
                            .contains("initializeSchema(ALWAYS)");
                });
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void aMissingTableIsAlsoReportedByEveryCallWhenVerificationIsOff(TestDatabase database) throws Exception {
        String missing = TestDatabase.uniqueTable("hoplock_missing");
        JdbcBackend backend = JdbcBackend.builder(pool(database)).table(missing)
                .initializeSchema(InitializeSchema.NEVER).verify(false).build();

        assertThatThrownBy(() -> backend.read("a/lease", Duration.ofSeconds(5)))
                .isInstanceOfSatisfying(BackendException.class, e -> {
                    assertThat(e.kind()).isEqualTo(BackendException.Kind.MISSING_CONTAINER);
                    assertThat(e.getMessage()).contains(missing).contains("schema-");
                });
    }

    @Test
    void embeddedModeCreatesTheTableOnH2Only() throws Exception {
        String table = TestDatabase.uniqueTable("hoplock_embedded");
        JdbcBackend h2 = JdbcBackend.builder(pool(TestDatabase.H2)).table(table).build();
        try {
            assertThat(h2.write("a/lease", Handle.NONE, bytes("x"), Duration.ofSeconds(5)))
                    .isInstanceOf(WriteResult.Written.class);
        } finally {
            TestDatabase.H2.dropTable(pool(TestDatabase.H2), table);
        }
        assertThat(JdbcSchema.initializeLeaseTable(pool(TestDatabase.POSTGRESQL), table,
                InitializeSchema.EMBEDDED)).as("PostgreSQL is not embedded").isFalse();
        assertThatThrownBy(() -> JdbcBackend.builder(pool(TestDatabase.POSTGRESQL)).table(table).build())
                .isInstanceOfSatisfying(BackendException.class,
                        e -> assertThat(e.kind()).isEqualTo(BackendException.Kind.MISSING_CONTAINER));
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void schemaCreationIsIdempotentAndKeepsRows(TestDatabase database) throws Exception {
        JdbcBackend backend = JdbcBackend.builder(pool(database)).table(TABLE).build();
        Handle handle = ((WriteResult.Written) backend.write("idempotent/" + database, Handle.NONE, bytes("kept"),
                Duration.ofSeconds(5))).handle();

        assertThat(JdbcSchema.initializeLeaseTable(pool(database), TABLE, InitializeSchema.ALWAYS)).isTrue();

        assertThat(backend.read("idempotent/" + database, Duration.ofSeconds(5)).orElseThrow().handle())
                .isEqualTo(handle);
        assertThat(backend.describe()).isEqualTo("jdbc:" + database.name().toLowerCase() + " table " + TABLE)
                .doesNotContain("127.0.0.1").doesNotContain("password");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "1abc", "lease;DROP TABLE x", "a.b.c", "lease-table", "\"quoted\""})
    void invalidTableNamesAreRejectedBeforeAnySql(String table) {
        assertThatThrownBy(() -> JdbcBackend.builder(pool(TestDatabase.H2)).table(table).build())
                .isInstanceOfSatisfying(InvalidSettingException.class, e -> assertThat(e.setting()).isEqualTo("table"))
                .hasMessageContaining("table name");
    }

    @Test
    void aSchemaQualifiedTableNameWorks() throws Exception {
        HikariDataSource pool = pool(TestDatabase.POSTGRESQL);
        String table = "public." + TestDatabase.uniqueTable("hoplock_qualified");
        try {
            JdbcBackend backend = JdbcBackend.builder(pool).table(table).initializeSchema(InitializeSchema.ALWAYS)
                    .build();
            assertThat(backend.write("q/lease", Handle.NONE, bytes("x"), Duration.ofSeconds(5)))
                    .isInstanceOf(WriteResult.Written.class);
        } finally {
            TestDatabase.POSTGRESQL.dropTable(pool, table);
        }
    }

    @Test
    void wrongPostgresqlUserIsAccessDeniedWithoutSecrets() {
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        dataSource.setUrl("jdbc:postgresql://127.0.0.1:5432/test");
        dataSource.setUser("no_such_hoplock_user");
        dataSource.setPassword("s3cr3t-pg");

        assertThatThrownBy(() -> JdbcBackend.builder(dataSource).table(TABLE).build())
                .isInstanceOfSatisfying(BackendException.class, e -> {
                    assertThat(e.kind()).isEqualTo(BackendException.Kind.ACCESS_DENIED);
                    assertThat(e.getMessage()).contains("credentials").doesNotContain("s3cr3t-pg");
                });
    }

    @Test
    void wrongMariadbPasswordIsAccessDeniedWithoutSecrets() throws SQLException {
        MariaDbDataSource dataSource = new MariaDbDataSource("jdbc:mariadb://127.0.0.1:3306/test");
        dataSource.setUser("root");
        dataSource.setPassword("s3cr3t-maria");

        assertThatThrownBy(() -> JdbcBackend.builder(dataSource).table(TABLE).build())
                .isInstanceOfSatisfying(BackendException.class, e -> {
                    assertThat(e.kind()).isEqualTo(BackendException.Kind.ACCESS_DENIED);
                    assertThat(e.getMessage()).contains("credentials").doesNotContain("s3cr3t-maria");
                });
    }

    @Test
    void anUnreachableServerIsUnreachable() {
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        dataSource.setUrl("jdbc:postgresql://127.0.0.1:1/test?connectTimeout=2&password=s3cr3t-url");
        dataSource.setUser("postgres");

        assertThatThrownBy(() -> JdbcBackend.builder(dataSource).table(TABLE).build())
                .isInstanceOfSatisfying(BackendException.class, e -> {
                    assertThat(e.kind()).isEqualTo(BackendException.Kind.UNREACHABLE);
                    assertThat(e.getMessage()).contains(TABLE).contains("nothing was sent")
                            .doesNotContain("s3cr3t-url");
                });
    }

    /**
     * A swap stuck behind a row lock gives up at its sub-second deadline: on PostgreSQL and MariaDB the network
     * timeout fires (a socket timeout, not the query timeout rounded up to 1 s), on H2 the query timeout.
     */
    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void aStatementStuckOnALockEndsAtTheDeadlineWithAnUnknownOutcome(TestDatabase database) throws Exception {
        JdbcBackend backend = JdbcBackend.builder(pool(database)).table(TABLE).build();
        String key = "locked/" + database;
        Handle handle = ((WriteResult.Written) backend.write(key, Handle.NONE, bytes("first"),
                Duration.ofSeconds(5))).handle();

        try (Connection holder = database.connect()) {
            holder.setAutoCommit(false);
            try (PreparedStatement lock = holder.prepareStatement("SELECT version FROM " + TABLE
                    + " WHERE lease_key = ? FOR UPDATE")) {
                lock.setString(1, key);
                try (ResultSet row = lock.executeQuery()) {
                    assertThat(row.next()).isTrue();
                }
            }

            assertThatThrownBy(() -> backend.write(key, handle, bytes("second"), Duration.ofMillis(600)))
                    .isInstanceOfSatisfying(BackendException.class, e -> {
                        assertThat(e.kind()).isEqualTo(BackendException.Kind.TRANSIENT);
                        assertThat(e.getMessage()).contains(key).contains("the outcome is unknown");
                        if (database != TestDatabase.H2) {
                            assertThat(causes(e)).as("the network timeout ended the wait")
                                    .anyMatch(SocketTimeoutException.class::isInstance);
                        }
                    });
            holder.rollback();
        }
    }

    @Test
    void aZeroTimeoutSendsNothing() throws Exception {
        JdbcBackend backend = JdbcBackend.builder(pool(TestDatabase.H2)).table(TABLE).build();

        assertThatThrownBy(() -> backend.write("zero/lease", Handle.NONE, bytes("x"), Duration.ZERO))
                .isInstanceOfSatisfying(BackendException.class,
                        e -> assertThat(e.getMessage()).contains("nothing was sent"));
        assertThat(backend.read("zero/lease", Duration.ofSeconds(5))).isEmpty();
    }

    @Test
    void aConnectionLeftInManualCommitModeIsUsedInAutocommitAndRestored() throws Exception {
        JdbcDataSource h2 = new JdbcDataSource();
        h2.setURL(TestDatabase.H2.url());
        h2.setUser("sa");
        try (Connection shared = h2.getConnection()) {
            shared.setAutoCommit(false);
            javax.sql.DataSource single = new SingleConnectionDataSource(shared);
            JdbcBackend backend = JdbcBackend.builder(single).table(TABLE).build();

            backend.write("manual/lease", Handle.NONE, bytes("x"), Duration.ofSeconds(5));

            assertThat(shared.getAutoCommit()).isFalse();
        }
        JdbcBackend other = JdbcBackend.builder(pool(TestDatabase.H2)).table(TABLE).build();
        assertThat(other.read("manual/lease", Duration.ofSeconds(5))).as("committed, visible to others").isPresent();
    }

    private static java.util.List<Throwable> causes(Throwable e) {
        java.util.List<Throwable> chain = new java.util.ArrayList<>();
        for (Throwable t = e; t != null && !chain.contains(t); t = t.getCause()) {
            chain.add(t);
        }
        return chain;
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static HikariDataSource pool(TestDatabase database) {
        return Objects.requireNonNull(POOLS.get(database), () -> "no pool for " + database);
    }
}
