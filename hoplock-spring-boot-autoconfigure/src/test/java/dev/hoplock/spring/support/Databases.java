package dev.hoplock.spring.support;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * The real databases of this machine (and CI) for application-context tests: PostgreSQL and MariaDB on 127.0.0.1,
 * H2 in memory. A server that is not running fails the test with the command that starts it, never a skip.
 */
public enum Databases {
    POSTGRESQL("jdbc:postgresql://127.0.0.1:5432/test", "postgres", "postgresql",
            "pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start"),
    MARIADB("jdbc:mariadb://127.0.0.1:3306/test", "root", "mariadb",
            "start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd"),
    H2("jdbc:h2:mem:hoplock-spring;DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000", "sa", "h2", null);

    private final String url;
    private final String user;
    private final String ddlId;
    private final String startCommand;

    Databases(String url, String user, String ddlId, String startCommand) {
        this.url = url;
        this.user = user;
        this.ddlId = ddlId;
        this.startCommand = startCommand;
    }

    /** The Boot properties of a DataSource on this database (user, empty password, a small pool). */
    public String[] dataSourceProperties() {
        return new String[] {"spring.datasource.url=" + url, "spring.datasource.username=" + user,
                "spring.datasource.password=", "spring.datasource.hikari.maximum-pool-size=4"};
    }

    public String url() {
        return url;
    }

    public String user() {
        return user;
    }

    /** The lease table's shipped DDL resource for this database. */
    public String leaseDdl() {
        return "META-INF/hoplock/jdbc/schema-" + ddlId + ".sql";
    }

    /** The fence table's shipped DDL resource for this database. */
    public String fenceDdl() {
        return "META-INF/hoplock/jdbc/fence-" + ddlId + ".sql";
    }

    /** A table name no other test uses. */
    public static String uniqueTable(String prefix) {
        return prefix + "_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10).toLowerCase(Locale.ROOT);
    }

    public Connection connect() {
        try {
            return DriverManager.getConnection(url, user, "");
        } catch (SQLException e) {
            if (startCommand == null) {
                throw new IllegalStateException("cannot open " + url + ": " + e.getMessage(), e);
            }
            throw new IllegalStateException(name() + " is not reachable at " + url + " (" + e.getMessage()
                    + "); start it with: " + startCommand, e);
        }
    }

    public void execute(String sql) {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
    }

    public boolean tableExists(String table) {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.executeQuery("SELECT 1 FROM " + table + " WHERE 1 = 0").close();
            return true;
        } catch (SQLException e) {
            return false;
        }
    }

    /** The values of the first column of {@code sql}, as strings. */
    public List<String> column(String sql, Object... arguments) {
        try (Connection connection = connect(); PreparedStatement query = connection.prepareStatement(sql)) {
            for (int i = 0; i < arguments.length; i++) {
                query.setObject(i + 1, arguments[i]);
            }
            List<String> values = new ArrayList<>();
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    values.add(rows.getString(1));
                }
            }
            return values;
        } catch (SQLException e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
    }

    public void dropTables(String... tables) {
        for (String table : tables) {
            execute("DROP TABLE IF EXISTS " + table);
        }
    }
}
