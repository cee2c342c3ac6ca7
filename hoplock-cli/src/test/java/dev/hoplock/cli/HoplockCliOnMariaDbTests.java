package dev.hoplock.cli;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.jdbc.InitializeSchema;
import dev.hoplock.jdbc.JdbcBackend;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mariadb.jdbc.MariaDbDataSource;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code hoplock-cli} over the JDBC store on the machine's MariaDB (127.0.0.1:3306, user root, database test),
 * configured with {@code spring.datasource.*} and {@code hoplock.jdbc.*} as arguments: a wrong password and a missing
 * table are errors that say what to fix, without the password.
 */
@ExtendWith(OutputCaptureExtension.class)
class HoplockCliOnMariaDbTests extends CliOverStoreScenarios {

    private static final String URL = "jdbc:mariadb://127.0.0.1:3306/test";
    private static final String SECRET = "cli-db-secret-" + UUID.randomUUID();

    private final String table = "cli_lease_" + Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffL);

    private static MariaDbDataSource dataSource() throws Exception {
        MariaDbDataSource dataSource = new MariaDbDataSource(URL);
        dataSource.setUser("root");
        dataSource.setPassword("");
        return dataSource;
    }

    @AfterEach
    void dropTable() throws Exception {
        try (Connection connection = dataSource().getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + table);
        }
    }

    @Override
    List<String> settings() {
        return List.of("--hoplock.backend=jdbc", "--hoplock.jdbc.table=" + table, "--spring.datasource.url=" + URL,
                "--spring.datasource.username=root", "--spring.datasource.password=");
    }

    @Override
    Backend store() throws Exception {
        return JdbcBackend.builder(dataSource()).table(table).initializeSchema(InitializeSchema.ALWAYS).build();
    }

    @Test
    void aWrongPasswordIsAClearErrorWithoutThePassword(CapturedOutput log) {
        Result result = run(List.of("--hoplock.backend=jdbc", "--hoplock.jdbc.table=" + table,
                "--spring.datasource.url=" + URL, "--spring.datasource.username=root",
                "--spring.datasource.password=" + SECRET), "show", KEY);

        assertThat(result.code()).as(result.err()).isIn(ExitCode.CONFIGURATION, ExitCode.STORE_FAILED);
        clearErrorWithoutSecret(result, log, SECRET, "refused the DataSource's credentials",
                "spring.datasource.username");
    }

    @Test
    void aMissingTableIsAClearErrorThatNamesItAndTheSetting(CapturedOutput log) {
        Result result = run(List.of("--hoplock.backend=jdbc", "--hoplock.jdbc.table=cli_no_such_table",
                "--hoplock.jdbc.initialize-schema=never", "--spring.datasource.url=" + URL,
                "--spring.datasource.username=root", "--spring.datasource.password="), "show", KEY);

        assertThat(result.code()).as(result.err()).isEqualTo(ExitCode.CONFIGURATION);
        clearErrorWithoutSecret(result, log, SECRET, "cli_no_such_table", "hoplock.jdbc.initialize-schema");
    }
}
