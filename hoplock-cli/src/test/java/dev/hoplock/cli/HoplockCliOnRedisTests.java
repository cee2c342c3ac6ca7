package dev.hoplock.cli;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.redis.RedisBackend;
import dev.hoplock.redis.server.RedisServer;
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
 * {@code hoplock-cli} over the Redis store, on a redis-server that requires a password, started by hoplock-redis's
 * test harness on a free port; configured with {@code hoplock.redis.*} as arguments.
 */
@ExtendWith(OutputCaptureExtension.class)
class HoplockCliOnRedisTests extends CliOverStoreScenarios {

    private static final String SECRET = "cli-redis-secret-" + UUID.randomUUID();
    private static RedisServer server;

    private final String prefix = "cli-" + UUID.randomUUID().toString().substring(0, 8) + ":";

    @BeforeAll
    static void startServer() throws Exception {
        server = RedisServer.startWithPassword(SECRET);
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @Override
    List<String> settings() {
        return settings(SECRET);
    }

    private List<String> settings(String password) {
        return List.of("--hoplock.backend=redis", "--hoplock.redis.url=" + server.uri(0),
                "--hoplock.redis.password=" + password, "--hoplock.redis.prefix=" + prefix);
    }

    @Override
    Backend store() throws Exception {
        return RedisBackend.builder().uri(server.uri(0)).password(SECRET).prefix(prefix).build();
    }

    @Test
    void aWrongPasswordIsAClearErrorWithoutEitherPassword(CapturedOutput log) {
        String wrong = "wrong-" + SECRET;
        Result result = run(settings(wrong), "show", KEY);

        assertThat(result.code()).as(result.err()).isIn(ExitCode.CONFIGURATION, ExitCode.STORE_FAILED);
        clearErrorWithoutSecret(result, log, wrong, "hoplock.redis.password");
        clearErrorWithoutSecret(result, log, SECRET);
    }
}
