package dev.hoplock.cli;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.nats.NatsBackend;
import dev.hoplock.nats.server.NatsServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code hoplock-cli} over the NATS JetStream store, on a nats-server with a user and password, started by
 * hoplock-nats's test harness on a free port; configured with {@code hoplock.nats.*} as arguments.
 */
@ExtendWith(OutputCaptureExtension.class)
class HoplockCliOnNatsTests extends CliOverStoreScenarios {

    private static final String SECRET = "cli-nats-secret-" + UUID.randomUUID();
    private static NatsServer server;

    private final String bucket = "cli_" + UUID.randomUUID().toString().substring(0, 8);

    @BeforeAll
    static void startServer() throws Exception {
        server = NatsServer.start("cli-secured", true, "authorization { users: [ { user: app, password: \""
                + SECRET + "\" } ] }");
    }

    @AfterAll
    static void stopServer() throws Exception {
        server.close();
    }

    @Override
    List<String> settings() {
        return settings(bucket, SECRET);
    }

    private List<String> settings(String bucket, String password) {
        return List.of("--hoplock.backend=nats", "--hoplock.nats.url=" + server.url(),
                "--hoplock.nats.username=app", "--hoplock.nats.password=" + password,
                "--hoplock.nats.bucket=" + bucket);
    }

    @Override
    Backend store() throws Exception {
        return NatsBackend.builder().servers(server.url()).userInfo("app", SECRET).bucket(bucket).createBucket(true)
                .build();
    }

    @Test
    void aWrongPasswordIsAClearErrorWithoutEitherPassword(CapturedOutput log) {
        String wrong = "wrong-" + SECRET;
        Result result = run(settings(bucket, wrong), "show", KEY);

        assertThat(result.code()).as(result.err()).isIn(ExitCode.CONFIGURATION, ExitCode.STORE_FAILED);
        clearErrorWithoutSecret(result, log, wrong);
        clearErrorWithoutSecret(result, log, SECRET);
    }

    @Test
    void aMissingBucketIsAClearErrorThatNamesIt(CapturedOutput log) {
        Result result = run(settings("cli_no_such_bucket", SECRET), "show", KEY);

        assertThat(result.code()).as(result.err()).isIn(ExitCode.CONFIGURATION, ExitCode.STORE_FAILED);
        clearErrorWithoutSecret(result, log, SECRET, "cli_no_such_bucket");
    }
}
