package dev.hoplock.spring.autoconfigure;

import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.dynamodb.DynamoDbBackend;
import dev.hoplock.dynamodb.emulator.Dynalite;
import dev.hoplock.dynamodb.emulator.DynaliteExtension;
import dev.hoplock.spring.autoconfigure.dynamodb.DynamoDbProperties;
import dev.hoplock.spring.support.Failures;
import dev.hoplock.spring.support.StoreContexts;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code hoplock.backend=dynamodb} in real application contexts against dynalite, started by hoplock-dynamodb's test
 * harness: the store from {@code hoplock.dynamodb.*} or over the application's {@link DynamoDbClient} bean, the table
 * created or verified, an elector that leads on it, a {@code @WithLock} lock in it, health and metrics, and every
 * start-up failure explained with the property and the fix, never with the secret key.
 */
@ExtendWith({DynaliteExtension.class, OutputCaptureExtension.class})
class DynamoDbAutoConfigurationTests {

    private static final String SECRET = "dyn4m0-do-not-show";

    private final Dynalite dynalite;
    private final String table = "boot-" + UUID.randomUUID().toString().substring(0, 8);
    private final ApplicationContextRunner runner;

    DynamoDbAutoConfigurationTests(Dynalite dynalite) {
        this.dynalite = dynalite;
        this.runner = StoreContexts.runner().withPropertyValues("hoplock.backend=dynamodb",
                "hoplock.dynamodb.table=" + table);
    }

    private ApplicationContextRunner onDynalite() {
        return runner.withPropertyValues("hoplock.dynamodb.endpoint=" + dynalite.endpoint(),
                "hoplock.dynamodb.access-key=" + Dynalite.ACCESS_KEY_ID, "hoplock.dynamodb.secret-key=" + SECRET);
    }

    @Test
    void theTableIsCreatedAndLedOnAndNothingShowsTheSecret(CapturedOutput output) throws Exception {
        onDynalite().withPropertyValues("hoplock.dynamodb.create-table=true", "hoplock.dynamodb.prefix=boot/")
                .run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(DynamoDbBackend.class);
                    StoreContexts.leadsLocksAndIsObserved(context, SECRET);
                    assertThat(item("boot/default")).as("the lease is an item of the created table").isTrue();
                    assertThat(context.getBean(DynamoDbBackend.class).describe()).doesNotContain(SECRET);
                    assertThat(context.getBean(DynamoDbProperties.class).toString()).doesNotContain(SECRET);
                    assertThat(output).contains("hoplock: DynamoDB store", "with its own DynamoDB client");
                });
        assertThat(output).doesNotContain(SECRET);
    }

    /** The application's client is used as it is: its interceptor sees hoplock's requests, and it stays open. */
    @Test
    void theApplicationsDynamoDbClientIsUsed(CapturedOutput output) throws Exception {
        dynalite.createTable(table, "lease_key", software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType.S,
                false);
        AtomicInteger requests = new AtomicInteger();
        DynamoDbClient client = DynamoDbClient.builder().endpointOverride(dynalite.endpoint())
                .region(software.amazon.awssdk.regions.Region.US_EAST_1)
                .credentialsProvider(software.amazon.awssdk.auth.credentials.StaticCredentialsProvider.create(
                        software.amazon.awssdk.auth.credentials.AwsBasicCredentials.create("a", "b")))
                .httpClientBuilder(software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient.builder())
                .overrideConfiguration(c -> c.addExecutionInterceptor(new ExecutionInterceptor() {
                    @Override
                    public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
                        requests.incrementAndGet();
                    }
                })).build();
        try (client) {
            runner.withBean(DynamoDbClient.class, () -> client, definition -> definition.setDestroyMethodName(""))
                    .run(context -> {
                        StoreContexts.leadsLocksAndIsObserved(context, SECRET);
                        assertThat(requests.get()).as("hoplock's requests went through the application's client")
                                .isGreaterThan(3);
                        assertThat(output).contains("through the application's DynamoDbClient bean");
                    });
            assertThat(client.listTables().tableNames()).as("not closed by hoplock").contains(table);
        }
    }

    @Test
    void aMissingTableNamesCreateTable() {
        onDynalite().run(context -> {
            FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("The DynamoDB store failed its start-up check", table)
                    .doesNotContain(SECRET);
            assertThat(analysis.getAction()).contains("hoplock.dynamodb.create-table=true");
        });
        onDynalite().withPropertyValues("hoplock.dynamodb.check-on-start=false").run(context ->
                assertThat(context).hasNotFailed().hasSingleBean(DynamoDbBackend.class));
    }

    @Test
    void aTableWithAnotherKeyIsRefusedNamingTheTable() {
        dynalite.createTable(table, "id", software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType.S, false);
        onDynalite().run(context -> {
            FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("The DynamoDB store failed its start-up check", table);
            assertThat(analysis.getAction()).contains("Point hoplock.dynamodb.table at a table", "lease_key");
        });
    }

    @Test
    void missingAndHalfSettingsFailNamingTheProperty() {
        StoreContexts.runner().withPropertyValues("hoplock.backend=dynamodb").run(context -> {
            FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("hoplock.dynamodb.table is not set");
            assertThat(analysis.getAction()).contains("Set hoplock.dynamodb.table");
        });
        runner.withPropertyValues("hoplock.dynamodb.secret-key=" + SECRET).run(context -> {
            FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("hoplock.dynamodb.access-key is missing")
                    .doesNotContain(SECRET);
            assertThat(stackTrace(context.getStartupFailure())).doesNotContain(SECRET);
        });
    }

    @Test
    void badSettingsAreReportedUnderTheirProperty() {
        onDynalite().withPropertyValues("hoplock.dynamodb.table=a b").run(context -> {
            FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("Invalid hoplock setting hoplock.dynamodb.table");
            assertThat(analysis.getAction()).startsWith("Set hoplock.dynamodb.table ");
        });
        onDynalite().withPropertyValues("hoplock.dynamodb.endpoint=ftp://x").run(context -> {
            FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("Invalid hoplock setting hoplock.dynamodb.endpoint")
                    .doesNotContain(SECRET);
            assertThat(analysis.getAction()).startsWith("Set hoplock.dynamodb.endpoint ");
        });
        onDynalite().withPropertyValues("hoplock.dynamodb.region=eu west 1").run(context ->
                assertThat(Failures.analyze(context.getStartupFailure()).getDescription())
                        .contains("Invalid hoplock setting hoplock.dynamodb.region"));
    }

    @Test
    void aDurationWithoutAUnitIsSecondsAndZeroIsRefused() {
        onDynalite().withPropertyValues("hoplock.dynamodb.request-timeout=7", "hoplock.dynamodb.check-on-start=false")
                .run(context -> assertThat(context.getBean(DynamoDbProperties.class).getRequestTimeout())
                        .isEqualTo(Duration.ofSeconds(7)));
        onDynalite().withPropertyValues("hoplock.dynamodb.connect-timeout=0").run(context -> {
            FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("Invalid hoplock setting hoplock.dynamodb.connect-timeout:"
                    + " hoplock.dynamodb.connect-timeout (0ms) must be longer than zero");
            assertThat(analysis.getAction()).isEqualTo("Set hoplock.dynamodb.connect-timeout to a positive duration,"
                    + " for example 10s.");
        });
    }

    @Test
    void aMisspelledDynamoDbKeyIsNamedWithTheClosestProperty() {
        onDynalite().withPropertyValues("hoplock.unknown-properties=fail", "hoplock.dynamodb.tabel=x").run(context ->
                assertThat(Failures.analyze(context.getStartupFailure()).getDescription())
                        .contains("hoplock.dynamodb.tabel (did you mean hoplock.dynamodb.table?)"));
    }

    @Test
    void withoutTheStoreModuleTheFailureNamesTheArtifact() {
        runner.withClassLoader(new FilteredClassLoader("dev.hoplock.dynamodb")).run(context -> {
            FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("hoplock.backend is dynamodb, but"
                    + " dev.hoplock:hoplock-dynamodb is not on the classpath");
            assertThat(analysis.getAction()).contains("Add the dependency dev.hoplock:hoplock-dynamodb");
        });
        StoreContexts.runner().withClassLoader(new FilteredClassLoader("dev.hoplock.dynamodb",
                        "software.amazon.awssdk.services.dynamodb")).withPropertyValues("hoplock.backend=memory")
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(InMemoryBackend.class));
    }

    private boolean item(String key) {
        try (DynamoDbClient client = dynalite.client()) {
            return client.getItem(GetItemRequest.builder().tableName(table).consistentRead(true)
                    .key(Map.of("lease_key", AttributeValue.fromS(key))).build()).hasItem();
        }
    }

    private static String stackTrace(@Nullable Throwable failure) {
        StringWriter out = new StringWriter();
        Objects.requireNonNull(failure, "the context failed to start").printStackTrace(new PrintWriter(out));
        return out.toString();
    }
}
