package dev.hoplock.spring.autoconfigure;

import dev.hoplock.core.election.Elector;
import dev.hoplock.core.election.StoreVerification;
import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.core.backend.StoreCapabilities;
import dev.hoplock.s3.S3Backend;
import dev.hoplock.spring.leader.HoplockElections;
import dev.hoplock.spring.actuate.ElectionDescriptor;
import dev.hoplock.spring.actuate.HoplockEndpoint;
import dev.hoplock.spring.support.Failures;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The S3 store's conditions and settings, without a server: building the backend contacts nothing. Endpoints point
 * at 127.0.0.1 port 1, where nothing listens.
 */
class S3AutoConfigurationTests {

    private static final String SECRET = "s3cr3t-do-not-show";

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(HoplockAutoConfiguration.class));

    @Test
    void s3IsBuiltFromProperties() {
        runner.withPropertyValues("hoplock.backend=s3", "hoplock.s3.bucket=leases", "hoplock.s3.prefix=locks/",
                "hoplock.s3.endpoint=http://127.0.0.1:1", "hoplock.s3.path-style=true", "hoplock.s3.region=eu-west-1",
                "hoplock.s3.access-key=AKIA-TEST", "hoplock.s3.secret-key=" + SECRET).run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(S3Backend.class);
                    S3Backend backend = context.getBean(S3Backend.class);
                    assertThat(backend.describe()).contains("s3://leases/locks/", "127.0.0.1:1").doesNotContain(SECRET);
                    assertThat(backend.objectKey("default")).isEqualTo("locks/default");
                });
    }

    @Test
    void s3IsChosenWhenOnlyABucketIsSet() {
        runner.withPropertyValues("hoplock.s3.bucket=leases", "hoplock.s3.endpoint=http://127.0.0.1:1",
                "hoplock.probe=false").run(context -> {
                    assertThat(context).hasSingleBean(S3Backend.class);
                    // hoplock.probe=false: the backend's verification assumes the capabilities and sends nothing.
                    StoreCapabilities assumed = context.getBean(S3Backend.class).verify();
                    assertThat(assumed.support().values()).containsOnly(StoreCapabilities.Support.ASSUMED);
                });
    }

    @Test
    void theApplicationsS3ClientIsReused() {
        runner.withUserConfiguration(OwnClient.class).withPropertyValues("hoplock.s3.bucket=leases").run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(S3Backend.class).describe()).contains("127.0.0.1:2");
        });
    }

    @Test
    void clientSettingsMakeHoplockBuildItsOwnClient() {
        runner.withUserConfiguration(OwnClient.class)
                .withPropertyValues("hoplock.s3.bucket=leases", "hoplock.s3.endpoint=http://127.0.0.1:1")
                .run(context -> assertThat(context.getBean(S3Backend.class).describe()).contains("127.0.0.1:1")
                        .doesNotContain("127.0.0.1:2"));
    }

    @Test
    void noS3BeansWhenAnotherStoreIsChosen() {
        runner.withUserConfiguration(OwnClient.class).withPropertyValues("hoplock.backend=memory").run(context ->
                assertThat(context).hasNotFailed().doesNotHaveBean(S3Backend.class).hasSingleBean(InMemoryBackend.class));
    }

    @Test
    void withoutTheAwsSdkNothingS3IsTouched() {
        runner.withClassLoader(new FilteredClassLoader("software.amazon.awssdk"))
                .withPropertyValues("hoplock.backend=memory").run(context ->
                        assertThat(context).hasNotFailed().doesNotHaveBean(S3Backend.class)
                                .hasSingleBean(InMemoryBackend.class));
        runner.withClassLoader(new FilteredClassLoader("dev.hoplock.s3"))
                .withPropertyValues("hoplock.backend=s3", "hoplock.s3.bucket=leases").run(context -> {
                    FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("hoplock.backend is s3", "dev.hoplock:hoplock-s3");
                    assertThat(analysis.getAction()).contains("Add the dependency dev.hoplock:hoplock-s3");
                });
    }

    @Test
    void missingBucketFailsNamingIt() {
        runner.withPropertyValues("hoplock.backend=s3").run(context -> {
            FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("hoplock.s3.bucket is not set");
        });
    }

    @Test
    void halfTheCredentialsFailWithoutShowingTheSecret() {
        runner.withPropertyValues("hoplock.backend=s3", "hoplock.s3.bucket=b", "hoplock.s3.secret-key=" + SECRET)
                .run(context -> {
                    FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("hoplock.s3.access-key is missing")
                            .doesNotContain(SECRET);
                    assertThat(analysis.getAction()).doesNotContain(SECRET);
                    assertThat(context.getStartupFailure()).hasStackTraceContaining("access-key");
                    assertThat(stackTrace(context.getStartupFailure())).doesNotContain(SECRET);
                });
    }

    @Test
    void invalidEndpointFailsNamingIt() {
        runner.withPropertyValues("hoplock.backend=s3", "hoplock.s3.bucket=b", "hoplock.s3.endpoint=ftp://x")
                .run(context -> assertThat(Failures.analyze(context.getStartupFailure()).getDescription())
                        .contains("hoplock.s3.endpoint"));
    }

    /**
     * Each refused S3 setting is reported under the property that supplies it, found from the builder's
     * {@code InvalidSettingException} field. The prefix and bucket cases carry words ("endpoint", "region") that a
     * search of the message text would have taken for another property.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "hoplock.s3.endpoint=ftp://x             | hoplock.s3.endpoint          | http://",
            "hoplock.s3.endpoint=http://a b          | hoplock.s3.endpoint          | not a URL",
            "hoplock.s3.region=eu west 1             | hoplock.s3.region            | region name",
            "hoplock.s3.api-call-timeout=0s          | hoplock.s3.api-call-timeout  | longer than zero",
            "hoplock.s3.connect-timeout=-1s          | hoplock.s3.connect-timeout   | longer than zero",
            "hoplock.s3.prefix=/endpoint/            | hoplock.s3.prefix            | must not start with '/'",
            "hoplock.s3.bucket=region/endpoint       | hoplock.s3.bucket            | not a bucket name"})
    void eachBadSettingIsReportedUnderItsOwnProperty(String setting, String property, String reason) {
        runner.withPropertyValues("hoplock.backend=s3", "hoplock.s3.bucket=b", "hoplock.s3.endpoint=http://127.0.0.1:1",
                        "hoplock.s3.access-key=AKIA-TEST", "hoplock.s3.secret-key=" + SECRET, setting)
                .run(context -> {
                    FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("Invalid hoplock setting " + property + ":")
                            .contains(reason).doesNotContain(SECRET);
                    assertThat(Objects.requireNonNull(analysis.getAction(), "an action"))
                            .startsWith("Set " + property + " ");
                    String others = "hoplock.s3.(endpoint|region|api-call-timeout|connect-timeout|prefix|bucket)";
                    assertThat(Objects.requireNonNull(analysis.getAction(), "an action").replace(property, ""))
                            .as("the action names no other property").doesNotContainPattern(others);
                });
    }

    @Test
    void theProbeGatesCampaigningAndNothingShowsTheSecret() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(HoplockAutoConfiguration.class,
                        HoplockHealthAutoConfiguration.class, HoplockEndpointAutoConfiguration.class))
                .withPropertyValues("hoplock.s3.bucket=leases", "hoplock.s3.endpoint=http://127.0.0.1:1",
                        "hoplock.s3.path-style=true", "hoplock.s3.access-key=AKIA-TEST",
                        "hoplock.s3.secret-key=" + SECRET, "hoplock.s3.api-call-timeout=500ms",
                        "hoplock.ttl=1s", "hoplock.renew=300ms", "hoplock.poll=100ms",
                        "management.endpoints.web.exposure.include=hoplock")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    Elector elector = context.getBean(HoplockElections.class).getDefault();
                    await().atMost(Duration.ofSeconds(10))
                            .until(() -> elector.status().verificationProblem().isPresent());
                    assertThat(elector.status().verification()).isEqualTo(StoreVerification.VERIFYING);
                    assertThat(elector.status().holder()).as("not a single request about the lease").isEmpty();
                    CompositeHealthContributor health = context.getBean("hoplockHealthContributor",
                            CompositeHealthContributor.class);
                    await().atMost(Duration.ofSeconds(10)).until(() -> Objects.requireNonNull(((HealthIndicator)
                                    Objects.requireNonNull(health.getContributor("default"), "default"))
                            .health(), "health").toString().contains("could not be checked"));
                    org.springframework.boot.health.contributor.Health shown =
                            Objects.requireNonNull(((HealthIndicator)
                                    Objects.requireNonNull(health.getContributor("default"),
                                    "default")).health(), "health");
                    assertThat(shown.getStatus().getCode()).as("an outage, not DOWN by default").isEqualTo("UNKNOWN");
                    assertThat(shown.toString()).doesNotContain(SECRET);
                    ElectionDescriptor state = Objects.requireNonNull(
                            context.getBean(HoplockEndpoint.class).elections().get("default"), "the default election");
                    assertThat(state.toString()).contains("s3://leases/").doesNotContain(SECRET);
                    assertThat(elector.status().verificationProblem().orElseThrow()).doesNotContain(SECRET);
                });
    }

    private static String stackTrace(@Nullable Throwable failure) {
        java.io.StringWriter out = new java.io.StringWriter();
        Objects.requireNonNull(failure, "the context failed to start").printStackTrace(new java.io.PrintWriter(out));
        return out.toString();
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnClient {
        @Bean(destroyMethod = "close")
        S3Client s3Client() {
            return S3Client.builder()
                    .endpointOverride(URI.create("http://127.0.0.1:2"))
                    .region(Region.US_EAST_1)
                    .forcePathStyle(true)
                    .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("a", "b")))
                    .httpClientBuilder(UrlConnectionHttpClient.builder())
                    .build();
        }
    }

}
