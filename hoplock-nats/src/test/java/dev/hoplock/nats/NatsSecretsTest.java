package dev.hoplock.nats;

import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.nats.server.NatsServer;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * No password, token or credentials file content reaches a message, a cause's message, {@code describe()},
 * {@code toString()} or our log output: from a working backend, a wrong token, a wrong password, a refused permission
 * and a credentials file that the server does not accept.
 */
class NatsSecretsTest {

    /** A refused connection waits for the connect timeout in the client; the tests need not wait 3 s each. */
    private static final Duration QUICK = Duration.ofMillis(700);
    private static final String TOKEN = "hoplockTokenThatMustNeverBeLogged-8d1f2a";
    private static final String PASSWORD = "hoplockPasswordThatMustNeverBeLogged-3b7c";
    private static final String CREDS_JWT = "eyJ0eXAiOiJKV1QiLCJhbGciOiJlZDI1NTE5LW5rZXkifQ.eyJzdWIiOiJVQUhPUExPQ0sifQ.c2ln";
    private static final String CREDS_SEED = "SUAHOPLOCKSEEDTHATMUSTNEVERBELOGGEDAAAAAAAAAAAAAAAAAAAAAAAA";

    @Test
    void noSecretInMessagesDescriptionsOrLogs() throws Exception {
        List<String> texts = new ArrayList<>();
        PrintStream original = System.err;
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        try (NatsServer tokenServer = NatsServer.start("token", true, "authorization { token: \"" + TOKEN + "\" }");
             NatsServer userServer = NatsServer.start("user", true, "authorization { users: [ { user: app,"
                     + " password: \"" + PASSWORD + "\", permissions: { publish: { allow: [\"$JS.API.STREAM.INFO.>\"]"
                     + " }, subscribe: { allow: [\"_INBOX.>\"] } } } ] }")) {
            System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
            try (NatsBackend backend = NatsBackend.builder().servers(tokenServer.url()).token(TOKEN).createBucket(true)
                    .requestTimeout(Duration.ofSeconds(3)).build()) {
                texts.add(backend.describe());
                texts.add(backend.toString());
                texts.add(backend.verify().toString());
                backend.write("k", Handle.NONE, new byte[] {1}, Duration.ofSeconds(3));
            }
            texts.addAll(chain(catchThrowableOfType(BackendException.class, () -> NatsBackend.builder()
                    .servers(tokenServer.url()).token(TOKEN + "-wrong").connectTimeout(QUICK).build())));
            texts.addAll(chain(catchThrowableOfType(BackendException.class, () -> NatsBackend.builder()
                    .servers(userServer.url()).userInfo("app", PASSWORD + "-wrong").connectTimeout(QUICK).build())));
            texts.addAll(chain(catchThrowableOfType(BackendException.class, () -> NatsBackend.builder()
                    .servers(userServer.url()).userInfo("app", PASSWORD).createBucket(true)
                    .requestTimeout(Duration.ofSeconds(2)).build())));
            Path creds = Files.createTempFile(tokenServer.dir(), "user", ".creds");
            Files.writeString(creds, "-----BEGIN NATS USER JWT-----\n" + CREDS_JWT + "\n------END NATS USER JWT------\n\n"
                    + "-----BEGIN USER NKEY SEED-----\n" + CREDS_SEED + "\n------END USER NKEY SEED------\n");
            texts.addAll(chain(catchThrowableOfType(BackendException.class, () -> NatsBackend.builder()
                    .servers(tokenServer.url()).credentialsFile(creds).connectTimeout(QUICK).build())));
            texts.add(NatsBackend.builder().servers(tokenServer.url()).token(TOKEN).toString());
            // An application's connection whose server URL carries the password: not in describe() or messages.
            String withPassword = userServer.url().replace("nats://", "nats://app:" + PASSWORD + "@");
            try (io.nats.client.Connection connection = io.nats.client.Nats.connect(withPassword)) {
                NatsBackend app = NatsBackend.builder().connection(connection).verify(false).build();
                texts.add(app.describe());
                texts.add(app.toString());
                texts.addAll(chain(catchThrowableOfType(BackendException.class, app::verify)));
                texts.addAll(chain(catchThrowableOfType(BackendException.class,
                        () -> app.write("k", Handle.NONE, new byte[] {1}, Duration.ofSeconds(1)))));
            }
        } finally {
            System.setErr(original);
        }
        texts.add(log.toString(StandardCharsets.UTF_8));
        assertThat(texts).hasSizeGreaterThan(8).allSatisfy(text -> assertThat(text)
                .doesNotContain(TOKEN, PASSWORD, CREDS_JWT, CREDS_SEED));
        assertThat(String.join("\n", texts)).contains("refused the credentials", "may not publish to");
    }

    /**
     * A password (or token) with a '/' in a server URL: the '/' ends the URL's authority for a URI parser, so the text
     * before the '@' does not look like user info. The builder's toString() and its refusal must not show it.
     */
    @Test
    void aServerUrlWhosePasswordHasASlashIsNeverShown() {
        for (String url : List.of("nats://app:pa/" + PASSWORD + "@127.0.0.1:4222", "nats://" + TOKEN + "/x@127.0.0.1",
                "tls://app:" + PASSWORD + "/@127.0.0.1:4222")) {
            NatsBackendBuilder builder = NatsBackend.builder().servers("nats://127.0.0.1:4222", url);
            List<String> texts = new ArrayList<>();
            texts.add(builder.toString());
            dev.hoplock.core.InvalidSettingException refused = catchThrowableOfType(
                    dev.hoplock.core.InvalidSettingException.class, builder::build);
            texts.addAll(chain(refused));
            texts.add(String.valueOf(refused.rejectedValue()));

            assertThat(texts).as(url).allSatisfy(text -> assertThat(text).doesNotContain(PASSWORD, TOKEN));
            assertThat(refused.getMessage()).as(url).contains("127.0.0.1", "must not carry credentials");
            assertThat(builder.toString()).as(url).contains("nats://127.0.0.1:4222,");
        }
    }

    private static List<String> chain(Throwable e) {
        List<String> texts = new ArrayList<>();
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            texts.add(String.valueOf(t.getMessage()));
            texts.add(t.toString());
        }
        assertThat(texts).as("an exception was thrown").isNotEmpty();
        return texts;
    }
}
