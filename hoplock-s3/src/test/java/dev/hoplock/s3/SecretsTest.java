package dev.hoplock.s3;

import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.s3.server.FaultProxy;
import dev.hoplock.s3.server.FaultProxy.Response;
import dev.hoplock.s3.server.S3MockExtension;
import dev.hoplock.s3.server.S3MockServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static dev.hoplock.s3.S3BackendTest.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * No credential reaches a message, a cause's message or {@code toString()}, even from a server that echoes the
 * request's signed headers back in its error text.
 */
@ExtendWith(S3MockExtension.class)
class SecretsTest {

    private static final String ACCESS_KEY_ID = "AKIAHOPLOCKTEST12345";
    private static final String SECRET_KEY = "hoplockSecretKeyThatMustNeverBeLogged/0123456";
    private static final String SESSION_TOKEN = "FwoGZXIvYXdzEhoplockSessionTokenThatMustNeverBeLoggedAnywhere0123456789";

    @Test
    void errorsFromAnEchoingServerCarryNoCredentials(S3MockServer server) throws Exception {
        try (FaultProxy proxy = FaultProxy.start(server.endpoint())) {
            proxy.intercept(request -> Response.s3Error(403, "AccessDenied", "Denied for Authorization: "
                    + request.header("Authorization") + " token " + request.header("X-Amz-Security-Token")));
            List<String> texts = new ArrayList<>();
            try (S3Backend backend = builder(proxy.endpoint(), server.bucket()).verifyConditionalWrites(false).build()) {
                texts.add(backend.toString());
                texts.add(backend.describe());
                texts.addAll(chain(catchThrowableOfType(BackendException.class,
                        () -> backend.read("k", Duration.ofSeconds(5)))));
                texts.addAll(chain(catchThrowableOfType(BackendException.class,
                        () -> backend.write("k", Handle.NONE, bytes("a"), Duration.ofSeconds(5)))));
            }
            texts.addAll(chain(catchThrowableOfType(BackendException.class,
                    () -> builder(proxy.endpoint(), server.bucket()).build())));

            List<String> signatures = proxy.requests().stream()
                    .map(r -> r.header("Authorization").replaceAll(".*Signature=", "")).toList();
            assertThat(signatures).as("the server did receive signed requests to echo").isNotEmpty()
                    .allSatisfy(signature -> assertThat(signature).matches("[0-9a-f]{64}"));
            assertThat(texts).hasSizeGreaterThan(4).allSatisfy(text -> assertThat(text)
                    .doesNotContain(ACCESS_KEY_ID, SECRET_KEY, SESSION_TOKEN)
                    .doesNotContain(signatures));
        }
    }

    @Test
    void unreachableErrorsCarryNoCredentials(S3MockServer server) {
        List<String> texts = chain(catchThrowableOfType(BackendException.class,
                () -> builder(URI.create("http://127.0.0.1:9"), server.bucket()).build()));

        assertThat(texts).isNotEmpty().allSatisfy(text -> assertThat(text)
                .doesNotContain(ACCESS_KEY_ID, SECRET_KEY, SESSION_TOKEN));
    }

    private static S3BackendBuilder builder(URI endpoint, String bucket) {
        return TestS3.builder(endpoint, bucket, TestS3.uniquePrefix("secrets"))
                .credentials(ACCESS_KEY_ID, SECRET_KEY, SESSION_TOKEN);
    }

    /** The message and toString of the exception and of every cause and suppressed exception. */
    private static List<String> chain(Throwable e) {
        assertThat(e).as("an exception was expected").isNotNull();
        List<String> texts = new ArrayList<>();
        for (Throwable t = e; t != null; t = t.getCause()) {
            texts.add(String.valueOf(t.getMessage()));
            texts.add(t.toString());
            for (Throwable suppressed : t.getSuppressed()) {
                texts.add(String.valueOf(suppressed));
            }
        }
        return texts;
    }
}
