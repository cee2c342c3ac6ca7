package dev.hoplock.jdbc;

import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;
import org.junit.jupiter.api.Test;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 24: on PostgreSQL a store call sends its statement and nothing else. pgjdbc answers
 * {@link Connection#getTransactionIsolation()} with a round trip ({@code SHOW TRANSACTION ISOLATION LEVEL}); the store
 * asked it before every statement, so every read and write of a lease or lock cost two round trips. PostgreSQL runs
 * READ UNCOMMITTED as READ COMMITTED, so the store has no isolation to raise there and no longer asks.
 */
class JdbcRoundTripsTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @Test
    void aCallOnPostgresqlNeverAsksForTheIsolationLevel() throws Exception {
        String table = TestDatabase.uniqueTable("hoplock_trips");
        try (var pool = TestDatabase.POSTGRESQL.pool(2); Connection borrowed = pool.getConnection()) {
            List<String> asked = new CopyOnWriteArrayList<>();
            javax.sql.DataSource watched = new SingleConnectionDataSource(watch(borrowed, asked));
            JdbcBackend store = JdbcBackend.builder(watched).table(table)
                    .initializeSchema(InitializeSchema.ALWAYS).build();
            try {
                asked.clear();
                WriteResult created = store.write("trips/a", Handle.NONE, bytes("one"), TIMEOUT);
                StoredObject read = store.read("trips/a", TIMEOUT).orElseThrow();
                WriteResult swapped = store.write("trips/a", read.handle(), bytes("two"), TIMEOUT);
                WriteResult refused = store.write("trips/a", read.handle(), bytes("three"), TIMEOUT);

                assertThat(created).isInstanceOf(WriteResult.Written.class);
                assertThat(swapped).isInstanceOf(WriteResult.Written.class);
                assertThat(refused).isEqualTo(WriteResult.preconditionFailed());
                assertThat(asked).as("connection calls of four store calls").isNotEmpty()
                        .doesNotContain("getTransactionIsolation");
            } finally {
                TestDatabase.POSTGRESQL.dropTable(pool, table);
            }
        }
    }

    /** {@code connection}, recording the name of every method called on it in {@code asked}. */
    private static Connection watch(Connection connection, List<String> asked) {
        return (Connection) Proxy.newProxyInstance(JdbcRoundTripsTest.class.getClassLoader(),
                new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                    asked.add(method.getName());
                    try {
                        return method.invoke(connection, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
