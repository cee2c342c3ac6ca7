package dev.hoplock.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.hoplock.test.process.ElectorChildMain;
import dev.hoplock.test.process.ElectorChildMain.OpenStore;

/**
 * One elector in its own JVM, for {@link JdbcElectorProcessesTest}: {@link ElectorChildMain} over a
 * {@link JdbcBackend} on the real PostgreSQL server (a pool of two connections, closed when the child stops).
 *
 * <p>Arguments: JDBC URL, user, table, then {@link ElectorChildMain}'s: lease key, owner, TTL in ms, poll interval
 * in ms.
 */
public final class JdbcElectorMain {

    private JdbcElectorMain() {
    }

    public static void main(String[] args) throws Exception {
        ElectorChildMain.run(args, (store, ttl) -> {
            HikariConfig config = new HikariConfig();
            config.setJdbcUrl(store.get(0));
            config.setUsername(store.get(1));
            config.setPassword("");
            config.setMaximumPoolSize(2);
            config.setConnectionTimeout(ttl.toMillis());
            HikariDataSource pool = new HikariDataSource(config);
            JdbcBackend backend = JdbcBackend.builder(pool).table(store.get(2))
                    .initializeSchema(InitializeSchema.NEVER).requestTimeout(ttl).build();
            return new OpenStore(backend, pool);
        });
    }
}
