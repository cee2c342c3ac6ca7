package dev.hoplock.spring.autoconfigure;

import co.elastic.clients.transport.rest5_client.low_level.Rest5Client;
import dev.hoplock.core.election.Elector;
import dev.hoplock.core.election.StoreVerification;
import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.elasticsearch.ElasticsearchBackend;
import dev.hoplock.elasticsearch.node.Gateway;
import dev.hoplock.elasticsearch.node.OpenSearchExtension;
import dev.hoplock.elasticsearch.node.OpenSearchNode;
import dev.hoplock.elasticsearch.node.RawHttp;
import dev.hoplock.spring.autoconfigure.elasticsearch.ElasticsearchProperties;
import dev.hoplock.spring.HoplockConfigurationException;
import dev.hoplock.spring.leader.HoplockElections;
import dev.hoplock.spring.actuate.HoplockEndpoint;
import dev.hoplock.spring.support.Failures;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.elasticsearch.autoconfigure.ElasticsearchRestClientAutoConfiguration;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Objects;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code hoplock.backend=elasticsearch} in real application contexts against the in-JVM OpenSearch 2.19.6 node of
 * hoplock-elasticsearch's tests: the store built from {@code hoplock.elasticsearch.*} or over the application's
 * Boot-configured {@code Rest5Client}, an elector that leads on it, and every start-up failure (unreachable,
 * refused credentials, missing privilege, missing index, foreign mapping, a server that is no search cluster)
 * explained by the failure analysis with the property and the fix, never with the password.
 */
@ExtendWith({OpenSearchExtension.class, OutputCaptureExtension.class})
class ElasticsearchAutoConfigurationTests {

    private static final String USER = "hoplock";
    private static final String PASSWORD = "pa55-do-not-show";

    private final OpenSearchNode node;
    private final RawHttp raw;
    private final String index = "hoplock-spring-" + UUID.randomUUID().toString().substring(0, 8);
    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(HoplockAutoConfiguration.class,
                    HoplockHealthAutoConfiguration.class, HoplockEndpointAutoConfiguration.class))
            // The elector bounds its own run of the store's check (about eight requests) by its request timeout, a
            // part of the TTL: 6 s leaves it time on a loaded machine.
            .withPropertyValues("hoplock.ttl=6s", "hoplock.renew=2s", "hoplock.poll=200ms",
                    "hoplock.elasticsearch.request-timeout=5s");
    private Gateway gateway;

    ElasticsearchAutoConfigurationTests(OpenSearchNode node) {
        this.node = node;
        this.raw = new RawHttp(node);
    }

    @BeforeEach
    void openGateway() throws Exception {
        gateway = Gateway.to(node);
    }

    @AfterEach
    void closeGateway() {
        gateway.close();
    }

    @Test
    void theStoreIsBuiltFromPropertiesCheckedAtStartAndLedOn() {
        runner.withPropertyValues("hoplock.backend=elasticsearch",
                "hoplock.elasticsearch.endpoint=" + node.endpoint(), "hoplock.elasticsearch.index=" + index)
                .run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(ElasticsearchBackend.class);
                    ElasticsearchBackend backend = context.getBean(ElasticsearchBackend.class);
                    assertThat(backend.describe()).as("the start-up check ran: it knows the product")
                            .isEqualTo("elasticsearch index " + index + " at " + node.endpoint()
                                    + " (OpenSearch 2.19.6)");
                    assertThat(raw.get("/" + index + "/_mapping").body()).as("the index was created")
                            .contains("\"dynamic\":\"strict\"");
                    Elector elector = elector(context);
                    await().atMost(Duration.ofSeconds(20)).until(elector::isLeader);
                    assertThat(elector.status().verification()).isEqualTo(StoreVerification.VERIFIED);
                    assertThat(raw.get("/" + index + "/_doc/default").body()).as("the lease is a readable document")
                            .contains("\"key\":\"default\"").contains("\"generation\":");
                    assertThat(health(context).getStatus()).isEqualTo(Status.UP);
                });
    }

    @Test
    void theApplicationsBootConfiguredClientIsReused(CapturedOutput output) {
        runner.withConfiguration(AutoConfigurations.of(ElasticsearchRestClientAutoConfiguration.class))
                .withPropertyValues("spring.elasticsearch.uris=" + gateway.endpoint(),
                        "spring.elasticsearch.username=" + USER, "spring.elasticsearch.password=" + PASSWORD,
                        "hoplock.backend=elasticsearch", "hoplock.elasticsearch.index=" + index)
                .run(context -> {
                    gateway.requireBasicAuth(USER, PASSWORD);
                    assertThat(context).hasNotFailed().hasSingleBean(Rest5Client.class)
                            .hasSingleBean(ElasticsearchBackend.class);
                    assertThat(context.getBean(ElasticsearchBackend.class).endpoint())
                            .isEqualTo(gateway.endpoint().toString());
                    Elector elector = elector(context);
                    await().atMost(Duration.ofSeconds(20)).until(elector::isLeader);
                    assertThat(gateway.authorizations()).as("every request carried the client's credentials")
                            .isNotEmpty().allMatch(header -> header.startsWith("Basic "));
                    assertThat(output).contains("through the application's Rest5Client bean")
                            .doesNotContain(PASSWORD);
                });
        assertThat(node.endpoint()).as("the node outlives the contexts").isNotNull();
    }

    @Test
    void anEndpointInHoplocksSettingsWinsOverTheApplicationsClient() {
        runner.withConfiguration(AutoConfigurations.of(ElasticsearchRestClientAutoConfiguration.class))
                .withPropertyValues("spring.elasticsearch.uris=http://127.0.0.1:" + closedPort(),
                        "hoplock.backend=elasticsearch", "hoplock.elasticsearch.endpoint=" + gateway.endpoint(),
                        "hoplock.elasticsearch.username=" + USER, "hoplock.elasticsearch.password=" + PASSWORD,
                        "hoplock.elasticsearch.index=" + index, "management.endpoints.web.exposure.include=hoplock")
                .run(context -> {
                    gateway.requireBasicAuth(USER, PASSWORD);
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(ElasticsearchBackend.class).endpoint())
                            .isEqualTo(gateway.endpoint().toString());
                    Elector elector = elector(context);
                    await().atMost(Duration.ofSeconds(20)).until(elector::isLeader);
                    assertThat(health(context).toString()).doesNotContain(PASSWORD);
                    assertThat(context.getBean(HoplockEndpoint.class).elections().toString())
                            .contains("elasticsearch index " + index).doesNotContain(PASSWORD);
                    assertThat(context.getBean(HoplockProperties.class).toString()).doesNotContain(PASSWORD);
                    assertThat(context.getBean(ElasticsearchProperties.class).toString()).doesNotContain(PASSWORD)
                            .contains("index=" + index);
                });
    }

    @Test
    void anUnreachableClusterFailsTheStartNamingTheEndpointAndTheWayOut() {
        int port = closedPort();
        runner.withPropertyValues("hoplock.backend=elasticsearch",
                "hoplock.elasticsearch.endpoint=http://" + USER + ":" + PASSWORD + "@127.0.0.1:" + port,
                "hoplock.elasticsearch.index=" + index).run(context -> {
                    FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("failed its start-up check")
                            .contains("http://127.0.0.1:" + port).contains("index " + index)
                            .contains("cannot be reached").doesNotContain(PASSWORD);
                    assertThat(analysis.getAction()).contains("hoplock.elasticsearch.endpoint")
                            .contains("hoplock.elasticsearch.check-on-start=false");
                    assertThat(stackTrace(context.getStartupFailure())).doesNotContain(PASSWORD);
                });
    }

    @Test
    void withoutTheStartUpCheckAnUnreachableClusterStartsAndHealthSaysWhy() {
        runner.withPropertyValues("hoplock.backend=elasticsearch",
                "hoplock.elasticsearch.endpoint=http://127.0.0.1:" + closedPort(),
                "hoplock.elasticsearch.check-on-start=false", "hoplock.elasticsearch.request-timeout=1s")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    Elector elector = elector(context);
                    await().atMost(Duration.ofSeconds(10))
                            .until(() -> elector.status().verificationProblem().isPresent());
                    assertThat(elector.status().verificationProblem().orElseThrow()).contains("cannot be reached");
                    assertThat(elector.isLeader()).isFalse();
                    await().atMost(Duration.ofSeconds(10)).until(() -> health(context).toString()
                            .contains("could not be checked"));
                });
    }

    @Test
    void refusedCredentialsNameTheUserPropertyNotThePassword() {
        gateway.requireBasicAuth(USER, "the-right-one");
        runner.withPropertyValues("hoplock.backend=elasticsearch",
                "hoplock.elasticsearch.endpoint=" + gateway.endpoint(), "hoplock.elasticsearch.username=" + USER,
                "hoplock.elasticsearch.password=" + PASSWORD, "hoplock.elasticsearch.index=" + index)
                .run(context -> {
                    FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("HTTP 401").contains(gateway.endpoint().toString())
                            .doesNotContain(PASSWORD);
                    assertThat(analysis.getAction()).contains("hoplock.elasticsearch.username and password")
                            .doesNotContain(PASSWORD);
                    assertThat(stackTrace(context.getStartupFailure())).doesNotContain(PASSWORD);
                });
    }

    @Test
    void aMissingPrivilegeIsNamedWithThePrivilegesToGrant() {
        gateway.forbid("PUT", "/" + index);
        runner.withPropertyValues("hoplock.backend=elasticsearch",
                "hoplock.elasticsearch.endpoint=" + gateway.endpoint(), "hoplock.elasticsearch.index=" + index)
                .run(context -> {
                    FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("HTTP 403").contains("index " + index);
                    assertThat(analysis.getAction()).contains("read, index, delete and create_index on " + index)
                            .contains("hoplock.elasticsearch.create-index=false");
                });
    }

    @Test
    void aMissingIndexWithCreationOffSaysHowToCreateIt() {
        runner.withPropertyValues("hoplock.backend=elasticsearch",
                "hoplock.elasticsearch.endpoint=" + node.endpoint(), "hoplock.elasticsearch.index=" + index,
                "hoplock.elasticsearch.create-index=false").run(context -> {
                    FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("does not exist").contains("index " + index);
                    assertThat(analysis.getAction()).contains("mapping in the hoplock README")
                            .contains("hoplock.elasticsearch.create-index=true");
                });
    }

    @Test
    void anIndexWithAForeignMappingSaysToUseANewName() throws Exception {
        assertThat(raw.put("/" + index, "{\"mappings\":{\"dynamic\":\"strict\",\"properties\":{"
                + "\"owner\":{\"type\":\"keyword\"}}}}").status()).isEqualTo(200);
        runner.withPropertyValues("hoplock.backend=elasticsearch",
                "hoplock.elasticsearch.endpoint=" + node.endpoint(), "hoplock.elasticsearch.index=" + index)
                .run(context -> {
                    FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("strict_dynamic_mapping_exception");
                    assertThat(analysis.getAction()).contains("hoplock.elasticsearch.index to a new index name");
                });
    }

    /**
     * A cluster that forbids inline painless update scripts: a cluster setting, not one of ours, so the failure
     * names the cluster settings and says no hoplock property fixes it (pointing the endpoint elsewhere does not).
     */
    @Test
    void aClusterThatRefusesScriptsNamesTheClusterSettingsNotAHoplockProperty() {
        gateway.refuseScripts();
        runner.withPropertyValues("hoplock.backend=elasticsearch",
                "hoplock.elasticsearch.endpoint=" + gateway.endpoint(), "hoplock.elasticsearch.index=" + index)
                .run(context -> {
                    Throwable failure = context.getStartupFailure();
                    HoplockConfigurationException cause = findCause(failure, HoplockConfigurationException.class);
                    assertThat(cause.property()).as("no hoplock property is at fault").isNull();
                    FailureAnalysis analysis = Failures.analyze(failure);
                    assertThat(analysis.getDescription()).contains("HTTP 400").contains("cannot execute [inline]");
                    assertThat(analysis.getAction()).contains("script.allowed_types", "script.allowed_contexts",
                                    "no hoplock property")
                            .doesNotContain("Point hoplock.elasticsearch.endpoint");
                });
    }

    private static <T extends Throwable> T findCause(@Nullable Throwable failure, Class<T> type) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        throw new AssertionError("no " + type.getSimpleName() + " in " + failure);
    }

    @Test
    void aServerThatIsNoSearchClusterIsNamedAsSuch() {
        gateway.notSearch();
        runner.withPropertyValues("hoplock.backend=elasticsearch",
                "hoplock.elasticsearch.endpoint=" + gateway.endpoint(), "hoplock.elasticsearch.index=" + index)
                .run(context -> {
                    FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("not Elasticsearch or OpenSearch")
                            .contains(gateway.endpoint().toString());
                    assertThat(analysis.getAction()).contains("Point hoplock.elasticsearch.endpoint at the HTTP port");
                });
    }

    @Test
    void badSettingsFailBeforeAnyRequest() {
        runner.withPropertyValues("hoplock.backend=elasticsearch").run(context ->
                assertThat(Failures.analyze(context.getStartupFailure()).getDescription())
                        .contains("hoplock.elasticsearch.endpoint is not set"));
        runner.withPropertyValues("hoplock.backend=elasticsearch", "hoplock.elasticsearch.endpoint=ftp://x")
                .run(context -> assertThat(Failures.analyze(context.getStartupFailure()).getDescription())
                        .contains("hoplock.elasticsearch.endpoint").contains("http:// or https://"));
        runner.withPropertyValues("hoplock.backend=elasticsearch", "hoplock.elasticsearch.endpoint=http://x:9200",
                "hoplock.elasticsearch.index=Upper_Case").run(context ->
                assertThat(Failures.analyze(context.getStartupFailure()).getDescription())
                        .contains("hoplock.elasticsearch.index").contains("Upper_Case"));
        runner.withPropertyValues("hoplock.backend=elasticsearch", "hoplock.elasticsearch.endpoint=http://x:9200",
                "hoplock.elasticsearch.connect-timeout=0s").run(context -> {
                    FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).as("the property from the setting field, not the message")
                            .contains("(hoplock.elasticsearch.connect-timeout)").contains("must be positive");
                    assertThat(analysis.getAction()).isEqualTo("Fix hoplock.elasticsearch.connect-timeout.");
                });
        runner.withPropertyValues("hoplock.backend=elasticsearch", "hoplock.elasticsearch.endpoint=http://x:9200",
                "hoplock.elasticsearch.password=" + PASSWORD).run(context -> {
                    FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("hoplock.elasticsearch.username is missing")
                            .doesNotContain(PASSWORD);
                    assertThat(stackTrace(context.getStartupFailure())).doesNotContain(PASSWORD);
                });
    }

    @Test
    void withoutTheModuleTheStartSaysWhichDependencyToAdd() {
        runner.withClassLoader(new FilteredClassLoader("dev.hoplock.elasticsearch"))
                .withPropertyValues("hoplock.backend=elasticsearch").run(context -> {
                    FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("hoplock.backend is elasticsearch")
                            .contains("dev.hoplock:hoplock-elasticsearch");
                    assertThat(analysis.getAction()).contains("Add the dependency dev.hoplock:hoplock-elasticsearch");
                });
    }

    @Test
    void anotherStoreLeavesElasticsearchAloneAndWarnsAboutItsSettings(CapturedOutput output) {
        runner.withPropertyValues("hoplock.backend=memory", "hoplock.elasticsearch.endpoint=http://127.0.0.1:1")
                .run(context -> {
                    assertThat(context).hasNotFailed().doesNotHaveBean(ElasticsearchBackend.class)
                            .hasSingleBean(InMemoryBackend.class);
                    assertThat(output).contains("hoplock.elasticsearch.endpoint (set in property source 'test') has no"
                            + " effect: the store is memory, so hoplock.elasticsearch.* is not read");
                });
        assertThat(KnownProperties.ofHoplock().names()).contains("hoplock.elasticsearch.endpoint",
                "hoplock.elasticsearch.api-key", "hoplock.elasticsearch.check-on-start",
                "hoplock.elasticsearch.request-timeout");
        assertThat(KnownProperties.ofHoplock().closest("hoplock.elasticsearch.endpont"))
                .isEqualTo("hoplock.elasticsearch.endpoint");
    }

    private static Elector elector(AssertableApplicationContext context) {
        return context.getBean(HoplockElections.class).getDefault();
    }

    private static Health health(AssertableApplicationContext context) {
        CompositeHealthContributor composite = context.getBean("hoplockHealthContributor",
                CompositeHealthContributor.class);
        HealthIndicator indicator = (HealthIndicator) Objects.requireNonNull(composite.getContributor("default"),
                "a contributor per election");
        return Objects.requireNonNull(indicator.health(), "an indicator answers");
    }

    private static int closedPort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static String stackTrace(@Nullable Throwable failure) {
        StringWriter out = new StringWriter();
        Objects.requireNonNull(failure, "the context failed to start").printStackTrace(new PrintWriter(out));
        return out.toString();
    }
}
