package dev.hoplock.azure.blob;

import dev.hoplock.azure.blob.emulator.Azurite;
import dev.hoplock.azure.blob.emulator.AzuriteExtension;
import dev.hoplock.core.InvalidSettingException;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.BackendException.Kind;
import dev.hoplock.s3.server.FaultProxy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.URI;
import java.time.Duration;
import java.util.Base64;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Bad input against the real emulator, each refused at build with a message that names the cause and the fix: wrong
 * credentials (account key, SAS signature), a SAS without write permission, a missing container, an unreachable
 * endpoint. Azurite checks Shared Key and SAS signatures and SAS permissions as Azure does.
 */
@ExtendWith(AzuriteExtension.class)
class AzureBlobStartupErrorsTest {

    private final Azurite azurite;

    AzureBlobStartupErrorsTest(Azurite azurite) {
        this.azurite = azurite;
    }

    @Test
    void aWrongAccountKeyIsRefusedAsCredentialsNotAccepted() {
        String wrongKey = Base64.getEncoder().encodeToString(new byte[64]);
        String container = azurite.newContainer("wrongkey");

        BackendException e = buildFails(AzureBlobBackend.builder()
                .connectionString("DefaultEndpointsProtocol=http;AccountName=" + Azurite.ACCOUNT + ";AccountKey="
                        + wrongKey + ";BlobEndpoint=" + azurite.endpoint() + ";")
                .container(container));

        assertThat(e.kind()).isEqualTo(Kind.ACCESS_DENIED);
        assertThat(e.isRetryable()).isFalse();
        assertThat(e.getMessage()).contains("answered 403", "Put Blob", azurite.endpoint() + "/" + container,
                "the credentials were not accepted", "account key or connection string").doesNotContain(wrongKey);
    }

    @Test
    void aSasTokenWithAWrongSignatureIsRefusedAsCredentialsNotAccepted() {
        String container = azurite.newContainer("wrongsig");
        String sas = AzureTestSas.forContainer(azurite, container, "rcwd");
        String forged = sas.replace(AzureTestSas.signature(sas), "AAAA" + AzureTestSas.signature(sas).substring(4));

        BackendException e = buildFails(AzureBlobBackend.builder().endpoint(azurite.endpoint()).sasToken(forged)
                .container(container));

        assertThat(e.kind()).isEqualTo(Kind.ACCESS_DENIED);
        assertThat(e.getMessage()).contains("the credentials were not accepted", "SAS token")
                .doesNotContain(AzureTestSas.signature(forged), AzureTestSas.signature(sas));
    }

    @Test
    void aReadOnlySasIsRefusedNamingThePermissionsHoplockNeeds() {
        String container = azurite.newContainer("readonly");
        String sas = AzureTestSas.forContainer(azurite, container, "r");

        BackendException e = buildFails(AzureBlobBackend.builder().endpoint(azurite.endpoint()).sasToken(sas)
                .container(container));

        assertThat(e.kind()).isEqualTo(Kind.ACCESS_DENIED);
        assertThat(e.getMessage()).contains("answered 403", "access denied",
                "Microsoft.Storage/storageAccounts/blobServices/containers/blobs/write",
                "Storage Blob Data Contributor", "hoplock needs r, c, w and d")
                .doesNotContain(AzureTestSas.signature(sas));
    }

    @Test
    void aMissingContainerIsRefusedNamingItAndTheFix() {
        BackendException e = buildFails(TestAzure.builder(azurite, "no-such-container", ""));

        assertThat(e.kind()).isEqualTo(Kind.MISSING_CONTAINER);
        assertThat(e.getMessage()).contains("the Azure Blob container 'no-such-container' does not exist at "
                + azurite.endpoint(), "create it", "az storage container create --name no-such-container");
    }

    @Test
    void anUnreachableEndpointIsRefusedAsUnreachableNamingTheEndpoint() throws Exception {
        int closed = Azurite.freePort();
        String endpoint = "http://127.0.0.1:" + closed + "/" + Azurite.ACCOUNT;

        BackendException e = buildFails(AzureBlobBackend.builder()
                .connectionString("DefaultEndpointsProtocol=http;AccountName=" + Azurite.ACCOUNT + ";AccountKey="
                        + Azurite.ACCOUNT_KEY + ";BlobEndpoint=" + endpoint + ";")
                .container("hoplock").requestTimeout(Duration.ofSeconds(5)));

        assertThat(e.kind()).isEqualTo(Kind.UNREACHABLE);
        assertThat(e.isRetryable()).isTrue();
        assertThat(e.getMessage()).contains("cannot reach Azure Blob Storage at " + endpoint, "connection refused",
                "check the endpoint");
    }

    /**
     * Azurite serves the read-only secondary of its account under {@code <account>-secondary} in the path, as Azure
     * does under {@code <account>-secondary} in the host: a connection string pointing there is refused before any
     * request (the proxy in front of Azurite sees none), naming the cause and the fix.
     */
    @Test
    void azuritesSecondaryEndpointIsRefusedBeforeAnyRequest() {
        String container = azurite.newContainer("secondary");
        try (FaultProxy proxy = FaultProxy.start(URI.create("http://127.0.0.1:" + azurite.port()))) {
            String secondary = proxy.endpoint() + "/" + Azurite.ACCOUNT + "-secondary";

            InvalidSettingException e = catchThrowableOfType(InvalidSettingException.class, () -> AzureBlobBackend
                    .builder().connectionString("DefaultEndpointsProtocol=http;AccountName=" + Azurite.ACCOUNT
                            + ";AccountKey=" + Azurite.ACCOUNT_KEY + ";BlobEndpoint=" + secondary + ";")
                    .container(container).build());

            assertThat(e).as("build() must refuse the secondary endpoint").isNotNull();
            assertThat(e.setting()).isEqualTo("connectionString");
            assertThat(e.getMessage()).contains("the Azure Blob endpoint " + secondary + " is a secondary endpoint",
                    "eventually consistent", "use the primary endpoint").doesNotContain(Azurite.ACCOUNT_KEY);
            assertThat(proxy.requests()).as("no request reached the store").isEmpty();
        }
    }

    private static BackendException buildFails(AzureBlobBackendBuilder builder) {
        BackendException e = catchThrowableOfType(BackendException.class, builder::build);
        assertThat(e).as("build() must fail").isNotNull();
        return e;
    }
}
