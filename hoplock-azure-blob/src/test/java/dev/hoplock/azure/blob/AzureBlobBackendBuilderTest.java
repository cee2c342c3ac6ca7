package dev.hoplock.azure.blob;

import com.azure.storage.blob.BlobServiceClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.common.policy.RequestRetryOptions;
import com.azure.storage.common.policy.RetryPolicyType;
import dev.hoplock.core.InvalidSettingException;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Settings that cannot work are refused by {@link AzureBlobBackendBuilder#build()} before any request, each naming the
 * setting, the rule and the fix, never a secret.
 */
class AzureBlobBackendBuilderTest {

    private static final String ENDPOINT = "https://myaccount.blob.core.windows.net";
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
