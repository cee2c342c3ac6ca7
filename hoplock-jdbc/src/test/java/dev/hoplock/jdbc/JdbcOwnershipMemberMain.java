package dev.hoplock.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.hoplock.test.process.ElectorChildMain.OpenStore;
import dev.hoplock.test.process.OwnershipMemberMain;

/**
 * One member of an ownership group in its own JVM, for {@code chaos/ownership-stress.sh store=postgres}:
 * {@link OwnershipMemberMain} over a {@link JdbcBackend} on a PostgreSQL server (a pool of four connections, closed
 * when the member stops). The table exists (the script makes it from the shipped DDL), so the member neither
 * creates nor verifies it: a member may start while the server is stopped, and connects on first use.
 *
 * <p>Arguments: JDBC URL, user (no password: the script's server trusts loopback), table, then
 * {@link OwnershipMemberMain}'s: member id, owner, TTL ms, sink directory, number of keys.
 */
public final class JdbcOwnershipMemberMain {

    private JdbcOwnershipMemberMain() {
    }

    public static void main(String[] args) throws Exception {
        OwnershipMemberMain.run(args, (store, ttl) -> {
            HikariConfig config = new HikariConfig();
            config.setJdbcUrl(store.get(0));
            config.setUsername(store.get(1));
            config.setPassword("");
            config.setMaximumPoolSize(4);
            config.setConnectionTimeout(ttl.toMillis());
            // A member starts while the server may be stopped (a slow store): the pool connects on first use.
            config.setInitializationFailTimeout(-1);
            HikariDataSource pool = new HikariDataSource(config);
            JdbcBackend backend = JdbcBackend.builder(pool).table(store.get(2))
                    .initializeSchema(InitializeSchema.NEVER).verify(false).requestTimeout(ttl).build();
            return new OpenStore(backend, pool);
        });
    }
}
