package dev.hoplock.cli;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.s3.S3Backend;
import dev.hoplock.s3.server.S3MockExtension;
import dev.hoplock.s3.server.S3MockServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code hoplock-cli} over the S3 store, on Adobe S3Mock (a separate process, through hoplock-s3's test harness),
 * configured with the starter's {@code hoplock.s3.*} settings as arguments. S3Mock accepts any credentials, so a wrong
 * key cannot be shown here; a missing bucket can.
 */
@ExtendWith({S3MockExtension.class, OutputCaptureExtension.class})
class HoplockCliOnS3Tests extends CliOverStoreScenarios {

    private static final String SECRET = "cli-s3-secret-" + UUID.randomUUID();

    private final S3MockServer server;
    private final String prefix = "cli-" + UUID.randomUUID().toString().substring(0, 8) + "/";

    HoplockCliOnS3Tests(S3MockServer server) {
        this.server = server;
    }

    @Override
    List<String> settings() {
        return settings(server.bucket());
    }

    private List<String> settings(String bucket) {
        return List.of("--hoplock.backend=s3", "--hoplock.s3.bucket=" + bucket, "--hoplock.s3.prefix=" + prefix,
                "--hoplock.s3.endpoint=" + server.endpoint(), "--hoplock.s3.path-style=true",
                "--hoplock.s3.region=us-east-1", "--hoplock.s3.access-key=cli-access-key",
                "--hoplock.s3.secret-key=" + SECRET, "--hoplock.s3.api-call-timeout=5s");
    }

    @Override
    Backend store() throws Exception {
        return S3Backend.builder().endpoint(server.endpoint()).pathStyle(true).region("us-east-1")
                .credentials("cli-access-key", SECRET).bucket(server.bucket()).prefix(prefix)
                .requestTimeout(Duration.ofSeconds(5)).verifyConditionalWrites(false).build();
    }

    @Test
    void aMissingBucketIsAClearErrorThatNamesItAndNotTheSecret(CapturedOutput log) {
        Result result = run(settings("no-such-bucket-cli"), "show", KEY);

        assertThat(result.code()).as(result.err()).isIn(ExitCode.CONFIGURATION, ExitCode.STORE_FAILED);
        clearErrorWithoutSecret(result, log, SECRET, "no-such-bucket-cli");
    }
}
