package dev.hoplock.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.jspecify.annotations.Nullable;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

/**
 * The real databases the tests run against: PostgreSQL and MariaDB on this machine (and in CI), H2 in memory. A
 * server that is not running fails the test with the command that starts it, never a skip.
 */
enum TestDatabase {
    POSTGRESQL("jdbc:postgresql://127.0.0.1:5432/test", "postgres",
            "pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start") {
        @Override
        long sessionId(Connection connection) throws SQLException {
            return single(connection, "SELECT pg_backend_pid()");
        }

        @Override
        boolean waitsForLock(Connection observer, long sessionId) throws SQLException {
            try (PreparedStatement query = observer.prepareStatement(
                    "SELECT count(*) FROM pg_stat_activity WHERE pid = ? AND wait_event_type = 'Lock'")) {
                query.setLong(1, sessionId);
                return count(query) > 0;
            }
        }
    },
    MARIADB("jdbc:mariadb://127.0.0.1:3306/test", "root",
            "start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd") {
        @Override
        long sessionId(Connection connection) throws SQLException {
            return single(connection, "SELECT CONNECTION_ID()");
        }

        @Override
        boolean waitsForLock(Connection observer, long sessionId) throws SQLException {
            try (PreparedStatement query = observer.prepareStatement("SELECT count(*) FROM"
                    + " information_schema.INNODB_TRX WHERE trx_mysql_thread_id = ? AND trx_state = 'LOCK WAIT'")) {
                query.setLong(1, sessionId);
                return count(query) > 0;
            }
        }
    },
    H2("jdbc:h2:mem:hoplock;DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000", "sa", null) {
        @Override
        long sessionId(Connection connection) throws SQLException {
            return single(connection, "SELECT SESSION_ID()");
        }

        @Override
        boolean waitsForLock(Connection observer, long sessionId) throws SQLException {
            // H2 fills BLOCKER_ID for row-lock waits but not for an insert waiting on another session's uncommitted
            // key; a session still executing while the other holds the lock is waiting for it.
            try (PreparedStatement query = observer.prepareStatement("SELECT count(*) FROM"
                    + " INFORMATION_SCHEMA.SESSIONS WHERE SESSION_ID = ?"
                    + " AND (BLOCKER_ID IS NOT NULL OR EXECUTING_STATEMENT IS NOT NULL)")) {
                query.setLong(1, sessionId);
                return count(query) > 0;
            }
        }
    };

    private final String url;
    private final String user;
    private final @Nullable String startCommand;

    TestDatabase(String url, String user, @Nullable String startCommand) {
        this.url = url;
        this.user = user;
        this.startCommand = startCommand;
    }

    String url() {
        return url;
    }

    String user() {
        return user;
    }

    /** A pool of at most {@code size} connections; fails with the start command when the server is down. */
    HikariDataSource pool(int size) {
        return pool(size, true);
    }

    /** Like {@link #pool(int)}, handing out connections in {@code autoCommit} mode (HikariCP's setting). */
    HikariDataSource pool(int size, boolean autoCommit) {
        requireRunning();
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setUsername(user);
        config.setPassword("");
        config.setMaximumPoolSize(size);
        config.setMinimumIdle(0);
        config.setConnectionTimeout(10_000);
        config.setAutoCommit(autoCommit);
        config.setPoolName("hoplock-test-" + name().toLowerCase());
        return new HikariDataSource(config);
    }

    /** One connection outside any pool (for lock holders and observers). */
    Connection connect() throws SQLException {
        return DriverManager.getConnection(url, user, "");
    }

    /** A table name no other test class run uses. */
    static String uniqueTable(String prefix) {
        return prefix + "_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    }

    void dropTable(javax.sql.DataSource dataSource, String table) throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement drop = connection.createStatement()) {
            connection.setAutoCommit(true);
            drop.execute("DROP TABLE IF EXISTS " + table);
        }
    }

    /** The database's id for the session of {@code connection}. */
    abstract long sessionId(Connection connection) throws SQLException;

    /** True while the session {@code sessionId} waits for a lock, as {@code observer} sees it. */
    abstract boolean waitsForLock(Connection observer, long sessionId) throws SQLException;

    private void requireRunning() {
        if (startCommand == null) {
            return;
        }
        try (Connection ignored = connect()) {
            // reachable
        } catch (SQLException e) {
            throw new AssertionError(name() + " at " + url + " (user " + user + ") is not reachable (" + e.getMessage()
                    + "). These tests need the real server; start it with:\n    " + startCommand
                    + "\n(CI runs both PostgreSQL and MariaDB.)", e);
        }
    }

    private static long single(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet row = statement.executeQuery(sql)) {
            row.next();
            return row.getLong(1);
        }
    }

    private static long count(PreparedStatement query) throws SQLException {
        try (ResultSet row = query.executeQuery()) {
            row.next();
            return row.getLong(1);
        }
    }
}
