package dev.hoplock.cli;

import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.record.LeaseRecord;
import dev.hoplock.core.record.LeaseRecordCodec;
import dev.hoplock.jdbc.InitializeSchema;
import dev.hoplock.jdbc.JdbcBackend;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ThreadLocalRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code hoplock-cli} over the JDBC store on a local PostgreSQL (127.0.0.1:5432, user postgres, database test),
 * configured with the starter's settings ({@code spring.datasource.*}, {@code hoplock.jdbc.*}) as arguments.
 */
class HoplockCliOnPostgresTests {

    private static final String KEY = "locks/report";
    private final String table = "cli_lease_" + Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffL);

    private PGSimpleDataSource dataSource() {
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        dataSource.setUrl("jdbc:postgresql://127.0.0.1:5432/test");
        dataSource.setUser("postgres");
        return dataSource;
    }

    @AfterEach
    void dropTable() throws Exception {
        try (Connection connection = dataSource().getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + table);
        }
    }

    private String[] args(String... command) {
        String[] settings = {"--hoplock.backend=jdbc", "--hoplock.jdbc.table=" + table, "--hoplock.ttl=1s",
                "--spring.datasource.url=jdbc:postgresql://127.0.0.1:5432/test",
                "--spring.datasource.username=postgres", "--spring.datasource.password="};
        String[] all = new String[settings.length + command.length];
        System.arraycopy(settings, 0, all, 0, settings.length);
        System.arraycopy(command, 0, all, settings.length, command.length);
        return all;
    }

    @Test
    void showsAndReleasesADeadHoldersRecordInAPostgresqlTable() throws Exception {
        JdbcBackend store = JdbcBackend.builder(dataSource()).table(table).initializeSchema(InitializeSchema.ALWAYS)
                .build();
        store.write(KEY, Handle.NONE, LeaseRecordCodec.encode(new LeaseRecord(12, Instant.now().minusSeconds(2),
                "crashed-node", "n")), Duration.ofSeconds(5));

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        assertThat(HoplockCli.run(args("show", KEY), o, e)).as(err.toString(StandardCharsets.UTF_8))
                .isEqualTo(ExitCode.OK);
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("state:      expired")
                .contains("holder:     crashed-node").contains("generation: 12");

        assertThat(HoplockCli.run(args("release", KEY, "--poll=100ms"), o, e)).as(err.toString(StandardCharsets.UTF_8))
                .isEqualTo(ExitCode.OK);
        LeaseRecord released = LeaseRecordCodec.decode(store.read(KEY, Duration.ofSeconds(5)).orElseThrow().content());
        assertThat(released.isReleased()).isTrue();
        assertThat(released.generation()).isEqualTo(12);
    }
}
