package dev.hoplock.azure.blob;

import dev.hoplock.azure.blob.emulator.Azurite;
import dev.hoplock.azure.blob.emulator.AzuriteExtension;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.BackendException.Kind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

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

    private static BackendException buildFails(AzureBlobBackendBuilder builder) {
        BackendException e = catchThrowableOfType(BackendException.class, builder::build);
        assertThat(e).as("build() must fail").isNotNull();
        return e;
    }
}
