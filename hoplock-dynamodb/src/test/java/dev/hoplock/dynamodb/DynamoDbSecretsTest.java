package dev.hoplock.dynamodb;

import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.dynamodb.emulator.Dynalite;
import dev.hoplock.dynamodb.emulator.DynaliteExtension;
import dev.hoplock.s3.server.FaultProxy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static dev.hoplock.dynamodb.TestDynamo.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * No credential reaches a message, a cause, {@code toString()}, {@code describe()} or the log (everything this JVM
 * writes to stderr meanwhile), even from a server that echoes the request's signed headers in its error text.
 */
@ExtendWith(DynaliteExtension.class)
class DynamoDbSecretsTest {

    private static final String ACCESS_KEY_ID = "AKIAHOPLOCKTEST12345";
    private static final String SECRET_KEY = "hoplockSecretKeyThatMustNeverBeLogged/0123456";
    private static final String SESSION_TOKEN = "FwoGZXIvYXdzEhoplockSessionTokenThatMustNeverBeLoggedAnywhere0123456789";

    private final Dynalite dynalite;
    private final ByteArrayOutputStream log = new ByteArrayOutputStream();
    private PrintStream stderr;

    DynamoDbSecretsTest(Dynalite dynalite) {
        this.dynalite = dynalite;
    }

    @BeforeEach
    void captureTheLog() {
        stderr = System.err;
        System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void restoreTheLog() {
        System.setErr(stderr);
        System.err.print(log.toString(StandardCharsets.UTF_8));
    }

    @Test
    void errorsFromAnEchoingServerCarryNoCredentials() throws Exception {
        String table = dynalite.newTable("secrets");
        try (FaultProxy proxy = DynamoProxies.start(dynalite.endpoint())) {
            proxy.intercept(r -> DynamoProxies.error(400, "UnrecognizedClientException", "Denied for Authorization: "
                    + r.header("Authorization") + " token " + r.header("X-Amz-Security-Token")));
            List<String> texts = new ArrayList<>();
            try (DynamoDbBackend backend = builder(proxy.endpoint(), table).verify(false).build()) {
                texts.add(backend.toString());
                texts.add(backend.describe());
                texts.addAll(chain(catchThrowableOfType(BackendException.class,
                        () -> backend.read("k", Duration.ofSeconds(5)))));
                texts.addAll(chain(catchThrowableOfType(BackendException.class,
                        () -> backend.write("k", Handle.NONE, bytes("a"), Duration.ofSeconds(5)))));
            }
            texts.addAll(chain(catchThrowableOfType(BackendException.class, () -> builder(proxy.endpoint(), table)
                    .build())));

            List<String> signatures = proxy.requests().stream()
                    .map(r -> r.header("Authorization").replaceAll(".*Signature=", "")).toList();
            assertThat(signatures).as("the server received signed requests to echo").isNotEmpty()
                    .allSatisfy(signature -> assertThat(signature).matches("[0-9a-f]{64}"));
            assertThat(texts).hasSizeGreaterThan(4).allSatisfy(text -> assertThat(text)
                    .doesNotContain(ACCESS_KEY_ID, SECRET_KEY, SESSION_TOKEN).doesNotContain(signatures));
            assertThat(log.toString(StandardCharsets.UTF_8)).doesNotContain(SECRET_KEY, SESSION_TOKEN)
                    .doesNotContain(signatures);
        }
    }

    @Test
    void unreachableErrorsCarryNoCredentials() throws Exception {
        URI closed = URI.create("http://127.0.0.1:" + Dynalite.freePort());

        List<String> texts = chain(catchThrowableOfType(BackendException.class,
                () -> builder(closed, "hoplock-leases").requestTimeout(Duration.ofSeconds(3)).build()));

        assertThat(texts).isNotEmpty().allSatisfy(text -> assertThat(text)
                .doesNotContain(ACCESS_KEY_ID, SECRET_KEY, SESSION_TOKEN));
    }

    private static DynamoDbBackendBuilder builder(URI endpoint, String table) {
        return TestDynamo.builder(endpoint, table, "").credentials(ACCESS_KEY_ID, SECRET_KEY, SESSION_TOKEN);
    }

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
