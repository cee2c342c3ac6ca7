package dev.hoplock.spring.autoconfigure;

import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.nats.NatsBackend;
import dev.hoplock.nats.server.NatsServer;
import dev.hoplock.spring.autoconfigure.nats.NatsProperties;
import dev.hoplock.spring.support.Failures;
import dev.hoplock.spring.support.StoreContexts;
import io.nats.client.Connection;
import io.nats.client.KeyValue;
import io.nats.client.Nats;
import io.nats.client.api.KeyValueEntry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Objects;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code hoplock.backend=nats} in real application contexts against {@code nats-server} processes with JetStream,
 * started by hoplock-nats's test harness: the store from {@code hoplock.nats.*} or over the application's
 * {@link Connection} bean, an elector that leads on it, a {@code @WithLock} lock in it, health and metrics, and every
 * start-up failure explained with the property and the fix, never with the password.
 */
@ExtendWith(OutputCaptureExtension.class)
class NatsAutoConfigurationTests {

    private static final String SECRET = "n4ts-do-not-show";

    private static NatsServer open;
    private static NatsServer secured;

    private final String bucket = "boot-" + UUID.randomUUID().toString().substring(0, 8);
    private final ApplicationContextRunner runner = StoreContexts.runner()
            .withPropertyValues("hoplock.backend=nats", "hoplock.nats.bucket=" + bucket);

    @BeforeAll
    static void startServers() throws IOException {
        open = NatsServer.startSingle("boot-open");
        secured = NatsServer.start("boot-secured", true, "authorization { users: [ { user: app, password: \""
                + SECRET + "\" } ] }");
    }

    @AfterAll
    static void stopServers() throws InterruptedException {
        open.close();
        secured.close();
    }

    @Test
    void theStoreIsBuiltFromTheUrlCreatesItsBucketAndIsLedOn(CapturedOutput output) throws Exception {
        runner.withPropertyValues("hoplock.nats.url=" + open.url(), "hoplock.nats.create-bucket=true").run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(NatsBackend.class);
            StoreContexts.leadsLocksAndIsObserved(context, SECRET);
            assertThat(leaseIn(open, context.getBean(NatsBackend.class))).as("the lease is a key of the bucket")
                    .contains("\"owner\"");
            assertThat(output).contains("hoplock: NATS store", "with its own connection");
        });
    }

    @Test
    void aUserAndPasswordConnectAndNothingShowsThePassword(CapturedOutput output) throws Exception {
        runner.withPropertyValues("hoplock.nats.url=" + secured.url(), "hoplock.nats.username=app",
                "hoplock.nats.password=" + SECRET, "hoplock.nats.create-bucket=true").run(context -> {
                    StoreContexts.leadsLocksAndIsObserved(context, SECRET);
                    assertThat(context.getBean(NatsBackend.class).describe()).doesNotContain(SECRET);
                    assertThat(context.getBean(NatsProperties.class).toString()).doesNotContain(SECRET);
                });
        assertThat(output).doesNotContain(SECRET);
    }

    @Test
    void aWrongPasswordFailsNamingTheUserNotThePassword(CapturedOutput output) {
        runner.withPropertyValues("hoplock.nats.url=" + secured.url(), "hoplock.nats.username=app",
                "hoplock.nats.password=wrong-" + SECRET, "hoplock.nats.connect-timeout=2s").run(context -> {
                    FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("The NATS store failed its start-up check")
                            .doesNotContain(SECRET);
                    assertThat(analysis.getAction()).contains("hoplock.nats.username and password");
                    assertThat(stackTrace(context.getStartupFailure())).doesNotContain(SECRET);
                });
        assertThat(output).doesNotContain(SECRET);
    }

    /** The application's connection is used as it is (its messages count hoplock's requests) and left open. */
    @Test
    void theApplicationsConnectionIsUsedAndNotClosed(CapturedOutput output) throws Exception {
        try (Connection connection = Nats.connect(open.url())) {
            long before = connection.getStatistics().getOutMsgs();
            // The context must not close it either (Spring would infer close()), so that only hoplock could have.
            runner.withBean(Connection.class, () -> connection, definition -> definition.setDestroyMethodName(""))
                    .withPropertyValues("hoplock.nats.create-bucket=true")
                    .run(context -> {
                        StoreContexts.leadsLocksAndIsObserved(context, SECRET);
                        assertThat(context.getBean(Connection.class)).isSameAs(connection);
                        assertThat(connection.getStatistics().getOutMsgs()).as("hoplock's requests went over it")
                                .isGreaterThan(before + 3);
                        assertThat(output).contains("over the application's io.nats.client.Connection bean");
                    });
            assertThat(connection.getStatus()).as("never closed by hoplock").isEqualTo(Connection.Status.CONNECTED);
        }
    }

    @Test
    void hoplocksOwnUrlWinsOverTheApplicationsConnection() throws Exception {
        try (Connection connection = Nats.connect(open.url())) {
            runner.withBean(Connection.class, () -> connection).withPropertyValues("hoplock.nats.url=" + open.url(),
                    "hoplock.nats.create-bucket=true").run(context -> {
                        long before = connection.getStatistics().getOutMsgs();
                        StoreContexts.leadsLocksAndIsObserved(context, SECRET);
                        assertThat(connection.getStatistics().getOutMsgs()).as("nothing of hoplock's went over it")
                                .isEqualTo(before);
                    });
        }
    }

    @Test
    void noServerAnywhereFailsNamingTheUrl() {
        runner.run(context -> {
            FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("hoplock.backend is nats, but hoplock.nats.url is not set");
            assertThat(analysis.getAction()).contains("Set hoplock.nats.url", "io.nats.client.Connection bean");
        });
        runner.withPropertyValues("hoplock.nats.username=app").run(context -> assertThat(
                Failures.analyze(context.getStartupFailure()).getDescription())
                .contains("hoplock.nats.password is missing"));
    }

    @Test
    void aMissingBucketNamesCreateBucket() {
        runner.withPropertyValues("hoplock.nats.url=" + open.url()).run(context -> {
            FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("The NATS store failed its start-up check", bucket);
            assertThat(analysis.getAction()).contains("hoplock.nats.create-bucket=true");
        });
    }

    @Test
    void anUnreachableServerNamesTheUrl() throws IOException {
        runner.withPropertyValues("hoplock.nats.url=nats://127.0.0.1:" + closedPort(),
                "hoplock.nats.connect-timeout=1s").run(context -> {
                    FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("The NATS store failed its start-up check");
                    assertThat(analysis.getAction()).contains("point hoplock.nats.url at them");
                });
    }

    @Test
    void badSettingsAreReportedUnderTheirProperty() {
        runner.withPropertyValues("hoplock.nats.url=" + open.url(), "hoplock.nats.bucket=has space").run(context -> {
            FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("Invalid hoplock setting hoplock.nats.bucket");
            assertThat(analysis.getAction()).startsWith("Set hoplock.nats.bucket ");
        });
        runner.withPropertyValues("hoplock.nats.url=" + open.url(), "hoplock.nats.history=65").run(context ->
                assertThat(Failures.analyze(context.getStartupFailure()).getDescription()).contains(
                        "Invalid hoplock setting hoplock.nats.history: hoplock.nats.history (65) must be 1 to 64"));
        runner.withPropertyValues("hoplock.nats.url=nats://app:" + SECRET + "@127.0.0.1:1").run(context -> {
            FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("Invalid hoplock setting hoplock.nats.url",
                    "must not carry credentials").doesNotContain(SECRET);
            assertThat(stackTrace(context.getStartupFailure())).doesNotContain(SECRET);
        });
    }

    @Test
    void aDurationWithoutAUnitIsSecondsAndZeroIsRefused() {
        runner.withPropertyValues("hoplock.nats.url=" + open.url(), "hoplock.nats.request-timeout=7",
                "hoplock.nats.create-bucket=true").run(context -> assertThat(context.getBean(NatsProperties.class)
                        .getRequestTimeout()).isEqualTo(Duration.ofSeconds(7)));
        runner.withPropertyValues("hoplock.nats.url=" + open.url(), "hoplock.nats.request-timeout=0").run(context -> {
            FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("Invalid hoplock setting hoplock.nats.request-timeout:"
                    + " hoplock.nats.request-timeout (0ms) must be longer than zero");
            assertThat(analysis.getAction()).isEqualTo("Set hoplock.nats.request-timeout to a positive duration, for"
                    + " example 10s.");
        });
    }

    @Test
    void aMisspelledNatsKeyIsNamedWithTheClosestProperty() {
        runner.withPropertyValues("hoplock.unknown-properties=fail", "hoplock.nats.url=" + open.url(),
                "hoplock.nats.tokn=" + SECRET).run(context -> assertThat(Failures.analyze(context.getStartupFailure())
                        .getDescription()).contains("hoplock.nats.tokn (did you mean hoplock.nats.token?)")
                        .doesNotContain(SECRET));
    }

    @Test
    void withoutTheStoreModuleTheFailureNamesTheArtifact() {
        runner.withClassLoader(new FilteredClassLoader("dev.hoplock.nats")).withPropertyValues(
                "hoplock.nats.url=" + open.url()).run(context -> {
                    FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("hoplock.backend is nats, but"
                            + " dev.hoplock:hoplock-nats is not on the classpath");
                    assertThat(analysis.getAction()).contains("Add the dependency dev.hoplock:hoplock-nats");
                });
        StoreContexts.runner().withClassLoader(new FilteredClassLoader("dev.hoplock.nats", "io.nats"))
                .withPropertyValues("hoplock.backend=memory")
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(InMemoryBackend.class));
    }

    private static String leaseIn(NatsServer server, NatsBackend backend) throws Exception {
        try (Connection reader = Nats.connect(server.url())) {
            KeyValue kv = reader.keyValue(backend.bucket());
            KeyValueEntry entry = kv.get(backend.kvKey("default"));
            return entry == null ? "" : new String(entry.getValue(), java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static String stackTrace(@Nullable Throwable failure) {
        StringWriter out = new StringWriter();
        Objects.requireNonNull(failure, "the context failed to start").printStackTrace(new PrintWriter(out));
        return out.toString();
    }
}
