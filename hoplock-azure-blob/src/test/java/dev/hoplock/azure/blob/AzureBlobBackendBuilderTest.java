package dev.hoplock.azure.blob;

import com.azure.core.credential.TokenCredential;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobContainerClientBuilder;
import com.azure.storage.blob.BlobServiceClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.common.policy.RequestRetryOptions;
import com.azure.storage.common.policy.RetryPolicyType;
import dev.hoplock.core.InvalidSettingException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import reactor.core.publisher.Mono;

import java.time.Duration;
import java.util.function.Supplier;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Settings that cannot work are refused by {@link AzureBlobBackendBuilder#build()} before any request, each naming the
 * setting, the rule and the fix, never a secret.
 */
class AzureBlobBackendBuilderTest {

    private static final String ENDPOINT = "https://myaccount.blob.core.windows.net";
    private static final String ACCOUNT_KEY = "c2VjcmV0S2V5VGhhdE11c3ROZXZlckJlU2hvd24hIUFBQUFBQUFBQUFBQUFBQUFBQUE=";
    private static final String SAS = "sv=2024-08-04&se=2099-01-01T00%3A00%3A00Z&sr=c&sp=rcwd&sig=c2VjcmV0U2lnbmF0dXJlVGhhdE11c3ROZXZlckJlU2hvd24%3D";

    @Test
    void aMissingContainerIsNamed() {
        InvalidSettingException e = refused(AzureBlobBackend.builder().endpoint(ENDPOINT).sasToken(SAS));

        assertThat(e.setting()).isEqualTo("container");
        assertThat(e.getMessage()).contains("no Azure Blob container configured", "container(\"...\")");
    }

    @Test
    void anInvalidContainerNameIsRefusedWithAzuresRule() {
        InvalidSettingException e = refused(AzureBlobBackend.builder().endpoint(ENDPOINT).sasToken(SAS)
                .container("My_Locks"));

        assertThat(e.setting()).isEqualTo("container");
        assertThat(e.getMessage()).contains("'My_Locks'", "3 to 63 lower-case letters, digits and single hyphens");
    }

    @Test
    void aPrefixWithASegmentEndingInADotIsRefused() {
        InvalidSettingException e = refused(AzureBlobBackend.builder().endpoint(ENDPOINT).sasToken(SAS)
                .container("locks").prefix("prod./"));

        assertThat(e.setting()).isEqualTo("prefix");
        assertThat(e.getMessage()).contains("Azure drops trailing dots");
    }

    @Test
    void noCredentialIsRefusedNamingTheChoices() {
        InvalidSettingException e = refused(AzureBlobBackend.builder().endpoint(ENDPOINT).container("locks"));

        assertThat(e.setting()).isEqualTo("credential");
        assertThat(e.getMessage()).contains("sasToken(...)", "credential(...)", "defaultAzureCredential()",
                "connectionString(...)");
    }

    @Test
    void twoCredentialsAreRefused() {
        InvalidSettingException e = refused(AzureBlobBackend.builder().endpoint(ENDPOINT).container("locks")
                .sasToken(SAS).defaultAzureCredential());

        assertThat(e.getMessage()).contains("more than one credential");
    }

    @Test
    void aConnectionStringWithAnEndpointIsRefused() {
        InvalidSettingException e = refused(AzureBlobBackend.builder().container("locks").endpoint(ENDPOINT)
                .connectionString("DefaultEndpointsProtocol=https;AccountName=a;AccountKey=a2V5;"));

        assertThat(e.setting()).isEqualTo("endpoint");
        assertThat(e.getMessage()).contains("a connection string names the endpoint and the credentials");
    }

    @Test
    void aMalformedConnectionStringIsRefusedWithoutShowingIt() {
        String connectionString = "AccountName=a;AccountKey=c2VjcmV0S2V5VGhhdE11c3ROZXZlckJlU2hvd24hIQ==;Bogus";

        InvalidSettingException e = refused(AzureBlobBackend.builder().container("locks")
                .connectionString(connectionString));

        assertThat(e.setting()).isEqualTo("connectionString");
        assertThat(e.getMessage()).contains("not valid", "'Access keys'")
                .doesNotContain("c2VjcmV0S2V5VGhhdE11c3ROZXZlckJlU2hvd24hIQ==");
        assertThat(String.valueOf(e.rejectedValue())).doesNotContain("c2VjcmV0");
    }

    @Test
    void anEndpointWithAQueryIsRefusedWithoutShowingTheQuery() {
        InvalidSettingException e = refused(AzureBlobBackend.builder().endpoint(ENDPOINT + "?" + SAS)
                .sasToken(SAS).container("locks"));

        assertThat(e.setting()).isEqualTo("endpoint");
        assertThat(e.getMessage()).contains("no query", "sasToken(...)").doesNotContain("sig=");
    }

    @Test
    void aSecondaryEndpointIsRefusedBecauseItsReadsAreEventuallyConsistent() {
        InvalidSettingException e = refused(AzureBlobBackend.builder()
                .endpoint("https://myaccount-secondary.blob.core.windows.net").sasToken(SAS).container("locks"));

        assertThat(e.setting()).isEqualTo("endpoint");
        assertThat(e.getMessage()).contains("secondary endpoint", "eventually consistent", "use the primary endpoint");
    }

    /**
     * Every builder path that can point hoplock at a secondary endpoint, each refused before any request with the
     * setting it came through: the endpoint with each credential, a SAS URL pasted as the endpoint, a connection string
     * (by its account name or its BlobEndpoint), and the application's service or container client.
     */
    static Stream<Arguments> secondaryEndpointsOnEveryBuilderPath() {
        String secondary = "https://myaccount-secondary.blob.core.windows.net";
        TokenCredential token = context -> Mono.error(new IllegalStateException("no token in this test"));
        return Stream.of(
                Arguments.of("endpoint + sasToken", "endpoint",
                        (Supplier<AzureBlobBackendBuilder>) () -> AzureBlobBackend.builder().endpoint(secondary)
                                .sasToken(SAS)),
                Arguments.of("endpoint + credential", "endpoint",
                        (Supplier<AzureBlobBackendBuilder>) () -> AzureBlobBackend.builder().endpoint(secondary)
                                .credential(token)),
                Arguments.of("endpoint + defaultAzureCredential", "endpoint",
                        (Supplier<AzureBlobBackendBuilder>) () -> AzureBlobBackend.builder().endpoint(secondary)
                                .defaultAzureCredential()),
                Arguments.of("a SAS URL as the endpoint", "endpoint",
                        (Supplier<AzureBlobBackendBuilder>) () -> AzureBlobBackend.builder()
                                .endpoint(secondary + "/locks?" + SAS).sasToken(SAS)),
                Arguments.of("an IP-style endpoint (the account in the path)", "endpoint",
                        (Supplier<AzureBlobBackendBuilder>) () -> AzureBlobBackend.builder()
                                .endpoint("https://10.0.0.7:443/myaccount-secondary").sasToken(SAS)),
                Arguments.of("a connection string's account name", "connectionString",
                        (Supplier<AzureBlobBackendBuilder>) () -> AzureBlobBackend.builder().connectionString(
                                "DefaultEndpointsProtocol=https;AccountName=myaccount-secondary;AccountKey="
                                        + ACCOUNT_KEY + ";EndpointSuffix=core.windows.net")),
                Arguments.of("a connection string's BlobEndpoint with a SAS", "connectionString",
                        (Supplier<AzureBlobBackendBuilder>) () -> AzureBlobBackend.builder().connectionString(
                                "BlobEndpoint=" + secondary + ";SharedAccessSignature=" + SAS)),
                Arguments.of("the application's service client", "serviceClient",
                        (Supplier<AzureBlobBackendBuilder>) () -> AzureBlobBackend.builder().serviceClient(
                                new BlobServiceClientBuilder().endpoint(secondary).sasToken(SAS)
                                        .httpClient(TestTransport.jdk()).buildClient())),
                Arguments.of("the application's container client", "containerClient",
                        (Supplier<AzureBlobBackendBuilder>) () -> AzureBlobBackend.builder().containerClient(
                                new BlobContainerClientBuilder().endpoint(secondary).containerName("locks")
                                        .sasToken(SAS).httpClient(TestTransport.jdk()).buildClient())));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("secondaryEndpointsOnEveryBuilderPath")
    void aSecondaryEndpointIsRefusedOnEveryBuilderPath(String path, String setting,
            Supplier<AzureBlobBackendBuilder> builder) {
        InvalidSettingException e = refused(builder.get().container("locks").verifyOnBuild(false));

        assertThat(e.setting()).as(path).isEqualTo(setting);
        assertThat(e.getMessage()).as(path).contains("is a secondary endpoint", "-secondary'", "eventually consistent",
                "use the primary endpoint").doesNotContain("sig=", ACCOUNT_KEY);
    }

    @Test
    void anApplicationContainerClientThatRetriesAgainstASecondaryHostIsRefused() {
        BlobContainerClient client = new BlobContainerClientBuilder().endpoint(ENDPOINT).containerName("locks")
                .sasToken(SAS).httpClient(TestTransport.jdk())
                .retryOptions(new RequestRetryOptions(RetryPolicyType.EXPONENTIAL, 3, Duration.ofSeconds(5), null,
                        null, "myaccount-secondary.blob.core.windows.net"))
                .buildClient();

        InvalidSettingException e = refused(AzureBlobBackend.builder().containerClient(client));

        assertThat(e.setting()).isEqualTo("containerClient");
        assertThat(e.getMessage()).contains("retries reads against the secondary host", "eventually consistent",
                "give hoplock a client whose retry options name no secondary host");
    }

    @Test
    void aContainerNamedLikeASecondaryIsNoSecondaryEndpoint() throws Exception {
        try (AzureBlobBackend backend = AzureBlobBackend.builder().endpoint(ENDPOINT).sasToken(SAS)
                .container("logs-secondary").verifyOnBuild(false).build()) {
            assertThat(backend.describe()).isEqualTo(ENDPOINT + "/logs-secondary/");
        }
    }

    @Test
    void anApplicationClientThatRetriesAgainstASecondaryHostIsRefused() {
        BlobServiceClient client = new BlobServiceClientBuilder().endpoint(ENDPOINT).sasToken(SAS)
                .httpClient(TestTransport.jdk())
                .retryOptions(new RequestRetryOptions(RetryPolicyType.EXPONENTIAL, 3, Duration.ofSeconds(5), null,
                        null, "myaccount-secondary.blob.core.windows.net"))
                .buildClient();

        InvalidSettingException e = refused(AzureBlobBackend.builder().serviceClient(client).container("locks"));

        assertThat(e.setting()).isEqualTo("serviceClient");
        assertThat(e.getMessage()).contains("retries reads against the secondary host", "eventually consistent");
    }

    @Test
    void anApplicationClientWithTheBuildersOwnClientSettingsIsRefused() {
        BlobServiceClient client = new BlobServiceClientBuilder().endpoint(ENDPOINT).sasToken(SAS)
                .httpClient(TestTransport.jdk()).buildClient();

        InvalidSettingException e = refused(AzureBlobBackend.builder().serviceClient(client).container("locks")
                .sasToken(SAS));

        assertThat(e.setting()).isEqualTo("sasToken");
        assertThat(e.getMessage()).contains("come from that client");
    }

    @Test
    void aNonPositiveTimeoutIsRefused() {
        InvalidSettingException e = refused(AzureBlobBackend.builder().endpoint(ENDPOINT).sasToken(SAS)
                .container("locks").requestTimeout(Duration.ZERO));

        assertThat(e.setting()).isEqualTo("requestTimeout");
    }

    @Test
    void anApplicationClientIsUsedWithoutARequestAndWithoutTheProbeWhenDeferred() throws Exception {
        BlobServiceClient client = new BlobServiceClientBuilder().endpoint(ENDPOINT).sasToken(SAS)
                .httpClient(TestTransport.jdk()).buildClient();

        try (AzureBlobBackend backend = AzureBlobBackend.builder().serviceClient(client).container("locks")
                .prefix("prod/").verifyOnBuild(false).build()) {
            assertThat(backend.describe()).isEqualTo(ENDPOINT + "/locks/prod/");
            assertThat(backend.toString()).doesNotContain("sig=");
        }
    }

    @Test
    void defaultAzureCredentialIsCreatedWhenAzureIdentityIsOnTheClassPathWithoutARequestWhenDeferred() throws Exception {
        try (AzureBlobBackend backend = AzureBlobBackend.builder().endpoint(ENDPOINT).defaultAzureCredential()
                .container("locks").verifyOnBuild(false).build()) {
            assertThat(backend.describe()).isEqualTo(ENDPOINT + "/locks/");
        }
    }

    private static InvalidSettingException refused(AzureBlobBackendBuilder builder) {
        InvalidSettingException e = catchThrowableOfType(InvalidSettingException.class, builder::build);
        assertThat(e).as("build() must refuse the settings").isNotNull();
        assertThat(e.getMessage()).doesNotContain("c2VjcmV0U2lnbmF0dXJl");
        return e;
    }
}
