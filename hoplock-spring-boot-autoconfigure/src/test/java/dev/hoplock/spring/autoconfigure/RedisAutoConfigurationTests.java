package dev.hoplock.spring.autoconfigure;

import dev.hoplock.core.backend.Durability;
import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.redis.RedisBackend;
import dev.hoplock.redis.server.RedisExtension;
import dev.hoplock.redis.server.RedisServer;
import dev.hoplock.spring.autoconfigure.redis.RedisProperties;
import dev.hoplock.spring.support.Failures;
import dev.hoplock.spring.support.StoreContexts;
import io.lettuce.core.event.connection.ConnectionActivatedEvent;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
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
import org.springframework.data.redis.connection.RedisPassword;
import org.springframework.data.redis.connection.RedisSocketConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code hoplock.backend=redis} in real application contexts against {@code redis-server} processes started by
 * hoplock-redis's test harness: the store from {@code hoplock.redis.*} or from the application's Lettuce connection
 * factory (sharing its client resources), an elector that leads on it, a {@code @WithLock} lock in it, health and
 * metrics, and every start-up failure explained with the property and the fix, never with the password.
 */
@ExtendWith({RedisExtension.class, OutputCaptureExtension.class})
class RedisAutoConfigurationTests {

    private static final String SECRET = "r3d1s-do-not-show";

    /** A server that requires {@link #SECRET}, shared by this class's tests. */
    private static RedisServer secured;

    private final RedisServer server;
    private final String prefix = "boot-" + UUID.randomUUID().toString().substring(0, 8) + ":";
    private final ApplicationContextRunner runner = StoreContexts.runner()
            .withPropertyValues("hoplock.backend=redis", "hoplock.redis.prefix=" + prefix);

    RedisAutoConfigurationTests(RedisServer server) {
        this.server = server;
    }

    @BeforeAll
    static void startSecuredServer() throws IOException {
        secured = RedisServer.startWithPassword(SECRET);
    }

    @AfterAll
    static void stopSecuredServer() {
        secured.close();
    }

    @Test
    void theStoreIsBuiltFromTheUrlCheckedAtStartAndLedOn(CapturedOutput output) throws Exception {
        runner.withPropertyValues("hoplock.redis.url=" + server.uri(3)).run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(RedisBackend.class);
            StoreContexts.leadsLocksAndIsObserved(context, SECRET);
            assertThat(server.commandIn(3, "EXISTS", prefix + "default")).as("the lease is a key in database 3")
                    .isEqualTo(1L);
            assertThat(output).contains("hoplock: Redis store", "from hoplock.redis.*");
        });
    }

    @Test
    void hostPortAndPasswordConnectAndNothingShowsThePassword(CapturedOutput output) throws Exception {
        runner.withPropertyValues("hoplock.redis.host=127.0.0.1", "hoplock.redis.port=" + secured.port(),
                "hoplock.redis.database=2", "hoplock.redis.password=" + SECRET).run(context -> {
                    StoreContexts.leadsLocksAndIsObserved(context, SECRET);
                    assertThat(secured.commandIn(2, "EXISTS", prefix + "default")).isEqualTo(1L);
                    assertThat(context.getBean(RedisBackend.class).describe()).doesNotContain(SECRET);
                    assertThat(context.getBean(RedisProperties.class).toString()).doesNotContain(SECRET);
                });
        assertThat(output).doesNotContain(SECRET);
    }

    @Test
    void aWrongPasswordFailsTheStartNamingThePropertyNotThePassword(CapturedOutput output) {
        runner.withPropertyValues("hoplock.redis.url=" + secured.uri(0), "hoplock.redis.password=wrong-" + SECRET)
                .run(context -> {
                    FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("The Redis store failed its start-up check")
                            .doesNotContain(SECRET);
                    assertThat(analysis.getAction()).contains("hoplock.redis.username and hoplock.redis.password")
                            .doesNotContain(SECRET);
                    assertThat(stackTrace(context.getStartupFailure())).doesNotContain(SECRET);
                });
        assertThat(output).doesNotContain(SECRET);
    }

    /**
     * The application's Lettuce connection factory tells where the server is (with its password) and lends its client
     * resources: hoplock's connection is announced on exactly that {@link ClientResources}' event bus.
     */
    @Test
    void theApplicationsLettuceConnectionFactoryIsReadAndItsClientResourcesShared(CapturedOutput output)
            throws Exception {
        ClientResources resources = DefaultClientResources.create();
        List<InetSocketAddress> connected = new CopyOnWriteArrayList<>();
        resources.eventBus().get().filter(ConnectionActivatedEvent.class::isInstance)
                .subscribe(event -> connected.add((InetSocketAddress) ((ConnectionActivatedEvent) event).remoteAddress()));
        try {
            RedisStandaloneConfiguration where = new RedisStandaloneConfiguration("127.0.0.1", secured.port());
            where.setDatabase(4);
            where.setPassword(RedisPassword.of(SECRET));
            runner.withBean(LettuceConnectionFactory.class, () -> new LettuceConnectionFactory(where,
                            LettuceClientConfiguration.builder().clientResources(resources).build()))
                    .run(context -> {
                        StoreContexts.leadsLocksAndIsObserved(context, SECRET);
                        assertThat(secured.commandIn(4, "EXISTS", prefix + "default"))
                                .as("the lease is where the factory points").isEqualTo(1L);
                        assertThat(connected).as("hoplock's connection runs on the application's ClientResources")
                                .extracting(InetSocketAddress::getPort).contains(secured.port());
                        assertThat(output).contains("where the application's Redis connection factory points");
                    });
            assertThat(output).doesNotContain(SECRET);
        } finally {
            resources.shutdown(0, 2, java.util.concurrent.TimeUnit.SECONDS).get();
        }
    }

    /**
     * A factory on a Unix socket is read as such, not as its default localhost:6379. (Connecting over the socket needs
     * Netty's native epoll transport, which this build does not have: the check is off and only the target is
     * asserted.)
     */
    @Test
    void aFactoryOnAUnixSocketIsRead() {
        RedisSocketConfiguration where = new RedisSocketConfiguration("/run/redis/app.sock");
        where.setDatabase(6);
        runner.withBean(LettuceConnectionFactory.class, () -> new LettuceConnectionFactory(where))
                .withPropertyValues("hoplock.redis.check-on-start=false").run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(RedisBackend.class).describe())
                            .contains("redis-socket:///run/redis/app.sock").doesNotContain("6379");
                });
    }

    @Test
    void hoplocksOwnUrlWinsOverTheApplicationsFactory() throws Exception {
        int closed = closedPort();
        runner.withBean(LettuceConnectionFactory.class, () -> new LettuceConnectionFactory(
                        new RedisStandaloneConfiguration("127.0.0.1", closed)))
                .withPropertyValues("hoplock.redis.url=" + server.uri(5)).run(context -> {
                    StoreContexts.leadsLocksAndIsObserved(context, SECRET);
                    assertThat(server.commandIn(5, "EXISTS", prefix + "default")).isEqualTo(1L);
                });
    }

    @Test
    void theDurabilitySettingsReachTheStore() {
        runner.withPropertyValues("hoplock.redis.url=" + server.uri(0), "hoplock.redis.minimum-durability=kept")
                .run(context -> {
                    FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("hoplock refuses", "below the minimum durability"
                            + " KEPT");
                    assertThat(analysis.getAction()).contains("hoplock.redis.minimum-durability");
                });
        runner.withPropertyValues("hoplock.redis.url=" + server.uri(0), "hoplock.redis.wait-for-replicas=1")
                .run(context -> assertThat(Failures.analyze(context.getStartupFailure()).getDescription())
                        .contains("every write waits for 1 replica", "has 0 connected"));
        runner.withPropertyValues("hoplock.redis.url=" + server.uri(0), "hoplock.redis.minimum-durability=lost-on-restart",
                        "hoplock.redis.check-on-start=false")
                .run(context -> assertThat(context.getBean(RedisProperties.class).getMinimumDurability())
                        .isEqualTo(Durability.LOST_ON_RESTART));
    }

    @Test
    void noServerAnywhereFailsNamingTheUrl() {
        runner.run(context -> {
            FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("hoplock.backend is redis, but hoplock.redis.url");
            assertThat(analysis.getAction()).contains("Set hoplock.redis.url", "spring.data.redis.*");
        });
        runner.withPropertyValues("hoplock.redis.url=" + server.uri(0), "hoplock.redis.host=127.0.0.1")
                .run(context -> assertThat(Failures.analyze(context.getStartupFailure()).getDescription())
                        .contains("names the Redis store more than once"));
    }

    @Test
    void anUnreachableServerNamesTheUrlUnlessTheCheckIsOff() throws IOException {
        String url = "redis://127.0.0.1:" + closedPort() + "/0";
        runner.withPropertyValues("hoplock.redis.url=" + url, "hoplock.redis.connect-timeout=1s",
                "hoplock.redis.request-timeout=2s").run(context -> {
                    FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("The Redis store failed its start-up check");
                    assertThat(analysis.getAction()).contains("point hoplock.redis.url at it",
                            "hoplock.redis.check-on-start=false");
                });
        runner.withPropertyValues("hoplock.redis.url=" + url, "hoplock.redis.check-on-start=false")
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(RedisBackend.class));
    }

    @Test
    void badSettingsAreReportedUnderTheirProperty() {
        runner.withPropertyValues("hoplock.redis.url=" + server.uri(0), "hoplock.redis.prefix=has space")
                .run(context -> {
                    FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("Invalid hoplock setting hoplock.redis.prefix");
                    assertThat(analysis.getAction()).startsWith("Set hoplock.redis.prefix ");
                });
        runner.withPropertyValues("hoplock.redis.url=" + server.uri(0), "hoplock.redis.wait-for-replicas=17")
                .run(context -> assertThat(Failures.analyze(context.getStartupFailure()).getDescription())
                        .contains("Invalid hoplock setting hoplock.redis.wait-for-replicas: hoplock.redis"
                                + ".wait-for-replicas (17) must be 0 to 16"));
        runner.withPropertyValues("hoplock.redis.url=http://:" + SECRET + "@127.0.0.1:1/0").run(context -> {
            FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("Invalid hoplock setting hoplock.redis.url")
                    .doesNotContain(SECRET);
            assertThat(stackTrace(context.getStartupFailure())).doesNotContain(SECRET);
        });
    }

    /** A duration without a unit is in seconds (as every hoplock duration); zero is refused naming the property. */
    @Test
    void aDurationWithoutAUnitIsSecondsAndZeroIsRefused() {
        runner.withPropertyValues("hoplock.redis.url=" + server.uri(0), "hoplock.redis.request-timeout=7",
                "hoplock.redis.check-on-start=false").run(context -> assertThat(context.getBean(RedisProperties.class)
                        .getRequestTimeout()).isEqualTo(Duration.ofSeconds(7)));
        runner.withPropertyValues("hoplock.redis.url=" + server.uri(0), "hoplock.redis.connect-timeout=0")
                .run(context -> {
                    FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("Invalid hoplock setting"
                            + " hoplock.redis.connect-timeout: hoplock.redis.connect-timeout (0ms) must be longer"
                            + " than zero");
                    assertThat(analysis.getAction()).isEqualTo("Set hoplock.redis.connect-timeout to a positive"
                            + " duration, for example 10s.");
                });
    }

    @Test
    void aMisspelledRedisKeyIsNamedWithTheClosestProperty() {
        runner.withPropertyValues("hoplock.redis.url=" + server.uri(0), "hoplock.unknown-properties=fail",
                "hoplock.redis.pasword=x").run(context -> assertThat(Failures.analyze(context.getStartupFailure())
                        .getDescription()).contains("hoplock.redis.pasword (did you mean hoplock.redis.password?)")
                        .doesNotContain("=x"));
    }

    @Test
    void withoutTheStoreModuleTheFailureNamesTheArtifact() {
        runner.withClassLoader(new FilteredClassLoader("dev.hoplock.redis")).withPropertyValues(
                "hoplock.redis.url=" + server.uri(0)).run(context -> {
                    FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("hoplock.backend is redis, but"
                            + " dev.hoplock:hoplock-redis is not on the classpath");
                    assertThat(analysis.getAction()).contains("Add the dependency dev.hoplock:hoplock-redis");
                });
        StoreContexts.runner().withClassLoader(new FilteredClassLoader("dev.hoplock.redis", "io.lettuce",
                        "org.springframework.data.redis")).withPropertyValues("hoplock.backend=memory")
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(InMemoryBackend.class));
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
