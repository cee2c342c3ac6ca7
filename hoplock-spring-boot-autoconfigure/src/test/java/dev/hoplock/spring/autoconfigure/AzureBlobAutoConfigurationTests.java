package dev.hoplock.spring.autoconfigure;

import com.azure.core.http.HttpClient;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobServiceClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import dev.hoplock.azure.blob.AzureBlobBackend;
import dev.hoplock.azure.blob.emulator.Azurite;
import dev.hoplock.azure.blob.emulator.AzuriteExtension;
import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.spring.autoconfigure.azure.AzureBlobProperties;
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

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code hoplock.backend=azure-blob} in real application contexts against Azurite, started by hoplock-azure-blob's
 * test harness: the store from {@code hoplock.azure-blob.*} or over the application's {@link BlobServiceClient} or
 * {@link BlobContainerClient} bean, an elector that leads on it, a {@code @WithLock} lock in it, health and metrics,
 * and every start-up failure explained with the property and the fix, never with the account key.
 */
@ExtendWith({AzuriteExtension.class, OutputCaptureExtension.class})
class AzureBlobAutoConfigurationTests {

    /** Azurite's development account key, published by Microsoft; treated here as the secret it would be. */
    private static final String SECRET = Azurite.ACCOUNT_KEY;

    private final Azurite azurite;
    private final String container;
    private final ApplicationContextRunner runner = StoreContexts.runner()
            .withPropertyValues("hoplock.backend=azure-blob");

    AzureBlobAutoConfigurationTests(Azurite azurite) {
        this.azurite = azurite;
        this.container = azurite.newContainer("boot");
    }

    private ApplicationContextRunner withConnectionString() {
        return runner.withPropertyValues("hoplock.azure-blob.container=" + container,
                "hoplock.azure-blob.connection-string=" + azurite.connectionString());
    }

    @Test
    void theStoreIsBuiltFromTheConnectionStringProbedAndLedOn(CapturedOutput output) throws Exception {
        withConnectionString().withPropertyValues("hoplock.azure-blob.prefix=boot/").run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(AzureBlobBackend.class);
            StoreContexts.leadsLocksAndIsObserved(context, SECRET);
            assertThat(azurite.serviceClient().getBlobContainerClient(container).getBlobClient("boot/default")
                    .exists()).as("the lease is a blob of the container").isTrue();
            assertThat(context.getBean(AzureBlobBackend.class).describe()).doesNotContain(SECRET);
            assertThat(context.getBean(AzureBlobProperties.class).toString()).doesNotContain(SECRET);
            assertThat(output).contains("hoplock: Azure Blob store", "with its own client");
        });
        assertThat(output).doesNotContain(SECRET);
    }

    /** The application's service client is used as it is: its HTTP client carries hoplock's requests. */
    @Test
    void theApplicationsBlobServiceClientIsUsed(CapturedOutput output) throws Exception {
        AtomicInteger requests = new AtomicInteger();
        BlobServiceClient service = countingClient(requests);
        runner.withBean(BlobServiceClient.class, () -> service).withPropertyValues(
                "hoplock.azure-blob.container=" + container).run(context -> {
                    StoreContexts.leadsLocksAndIsObserved(context, SECRET);
                    assertThat(requests.get()).as("hoplock's requests went through the application's client")
                            .isGreaterThan(3);
                    assertThat(output).contains("through the application's BlobServiceClient bean");
                });
    }

    @Test
    void theApplicationsBlobContainerClientIsUsedAndNamesTheContainer(CapturedOutput output) throws Exception {
        AtomicInteger requests = new AtomicInteger();
        BlobContainerClient client = countingClient(requests).getBlobContainerClient(container);
        runner.withBean(BlobContainerClient.class, () -> client).run(context -> {
            StoreContexts.leadsLocksAndIsObserved(context, SECRET);
            assertThat(requests.get()).isGreaterThan(3);
            assertThat(output).contains("through the application's BlobContainerClient bean");
        });
    }

    @Test
    void hoplocksOwnConnectionStringWinsOverTheApplicationsClient() throws Exception {
        AtomicInteger requests = new AtomicInteger();
        BlobServiceClient service = countingClient(requests);
        withConnectionString().withBean(BlobServiceClient.class, () -> service).run(context -> {
            StoreContexts.leadsLocksAndIsObserved(context, SECRET);
            assertThat(requests.get()).as("nothing of hoplock's went through the application's client").isZero();
        });
    }

    @Test
    void aMissingContainerFailsNamingIt() {
        runner.withPropertyValues("hoplock.azure-blob.container=no-such-" + container,
                "hoplock.azure-blob.connection-string=" + azurite.connectionString()).run(context -> {
                    FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("The Azure Blob store failed its start-up check")
                            .doesNotContain(SECRET);
                    assertThat(analysis.getAction()).contains("hoplock.azure-blob.container", "hoplock never creates");
                    assertThat(stackTrace(context.getStartupFailure())).doesNotContain(SECRET);
                });
        runner.withPropertyValues("hoplock.azure-blob.container=no-such-" + container,
                "hoplock.azure-blob.connection-string=" + azurite.connectionString(),
                "hoplock.azure-blob.check-on-start=false").run(context ->
                        assertThat(context).hasNotFailed().hasSingleBean(AzureBlobBackend.class));
    }

    @Test
    void missingSettingsFailNamingTheProperty() {
        runner.run(context -> {
            FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("hoplock.azure-blob.container is not set");
            assertThat(analysis.getAction()).contains("Set hoplock.azure-blob.container");
        });
        runner.withPropertyValues("hoplock.azure-blob.container=" + container).run(context -> {
            FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("neither hoplock.azure-blob.connection-string nor"
                    + " hoplock.azure-blob.endpoint is set");
            assertThat(analysis.getAction()).contains("Set hoplock.azure-blob.connection-string");
        });
        runner.withPropertyValues("hoplock.azure-blob.container=" + container,
                "hoplock.azure-blob.endpoint=" + azurite.endpoint()).run(context -> assertThat(
                        Failures.analyze(context.getStartupFailure()).getAction())
                .contains("Set exactly one of hoplock.azure-blob.sas-token"));
    }

    @Test
    void badSettingsAreReportedUnderTheirPropertyWithoutTheSecret() {
        withConnectionString().withPropertyValues("hoplock.azure-blob.prefix=/abs").run(context -> {
            FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("Invalid hoplock setting hoplock.azure-blob.prefix")
                    .doesNotContain(SECRET);
            assertThat(analysis.getAction()).startsWith("Set hoplock.azure-blob.prefix ");
        });
        runner.withPropertyValues("hoplock.azure-blob.container=" + container,
                "hoplock.azure-blob.connection-string=AccountKey=" + SECRET + ";nonsense").run(context -> {
                    FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains(
                            "Invalid hoplock setting hoplock.azure-blob.connection-string").doesNotContain(SECRET);
                    assertThat(stackTrace(context.getStartupFailure())).doesNotContain(SECRET);
                });
        withConnectionString().withPropertyValues("hoplock.azure-blob.sas-token=sv=x&sig=" + SECRET).run(context -> {
            FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("Invalid hoplock setting hoplock.azure-blob.sas-token")
                    .doesNotContain(SECRET);
        });
    }

    @Test
    void aDurationWithoutAUnitIsSecondsAndZeroIsRefused() {
        withConnectionString().withPropertyValues("hoplock.azure-blob.request-timeout=7",
                "hoplock.azure-blob.check-on-start=false").run(context -> assertThat(
                        context.getBean(AzureBlobProperties.class).getRequestTimeout()).isEqualTo(Duration.ofSeconds(7)));
        withConnectionString().withPropertyValues("hoplock.azure-blob.request-timeout=0").run(context -> {
            FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("Invalid hoplock setting hoplock.azure-blob.request-timeout:"
                    + " hoplock.azure-blob.request-timeout (0ms) must be longer than zero");
            assertThat(analysis.getAction()).isEqualTo("Set hoplock.azure-blob.request-timeout to a positive"
                    + " duration, for example 10s.");
        });
    }

    @Test
    void aMisspelledAzureKeyIsNamedWithTheClosestProperty() {
        withConnectionString().withPropertyValues("hoplock.unknown-properties=fail",
                "hoplock.azure-blob.sas-tokn=" + SECRET).run(context -> assertThat(
                        Failures.analyze(context.getStartupFailure()).getDescription())
                .contains("hoplock.azure-blob.sas-tokn (did you mean hoplock.azure-blob.sas-token?)")
                .doesNotContain(SECRET));
    }

    @Test
    void withoutTheStoreModuleTheFailureNamesTheArtifact() {
        withConnectionString().withClassLoader(new FilteredClassLoader("dev.hoplock.azure")).run(context -> {
            FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("hoplock.backend is azure-blob, but"
                    + " dev.hoplock:hoplock-azure-blob is not on the classpath");
            assertThat(analysis.getAction()).contains("Add the dependency dev.hoplock:hoplock-azure-blob");
        });
        StoreContexts.runner().withClassLoader(new FilteredClassLoader("dev.hoplock.azure", "com.azure.storage"))
                .withPropertyValues("hoplock.backend=memory")
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(InMemoryBackend.class));
    }

    /** A service client of the development account whose HTTP client counts the requests it sends. */
    private BlobServiceClient countingClient(AtomicInteger requests) {
        HttpClient base = azurite.serviceClient().getHttpPipeline().getHttpClient();
        HttpClient counting = request -> {
            requests.incrementAndGet();
            return base.send(request);
        };
        return new BlobServiceClientBuilder().connectionString(azurite.connectionString()).httpClient(counting)
                .buildClient();
    }

    private static String stackTrace(@Nullable Throwable failure) {
        StringWriter out = new StringWriter();
        Objects.requireNonNull(failure, "the context failed to start").printStackTrace(new PrintWriter(out));
        return out.toString();
    }
}
