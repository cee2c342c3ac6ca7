package dev.hoplock.azure.blob;

import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.models.BlobItem;
import com.azure.storage.blob.models.ListBlobsOptions;
import dev.hoplock.azure.blob.emulator.Azurite;
import dev.hoplock.core.backend.BackendException;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

/** Builders for the tests: backends over Azurite, each test on its own prefix or container. */
final class TestAzure {

    private TestAzure() {
    }

    /** A fresh prefix, so that tests sharing one container never see each other's blobs. */
    static String uniquePrefix(String name) {
        return "t/" + name + "-" + UUID.randomUUID().toString().substring(0, 8) + "/";
    }

    /**
     * A builder for Azurite: the development account's connection string. The request timeout is generous because
     * one Node.js process serves every request in turn, on 2 cores shared with other builds.
     */
    static AzureBlobBackendBuilder builder(Azurite azurite, String container, String prefix) {
        return AzureBlobBackend.builder()
                .connectionString(azurite.connectionString())
                .container(container)
                .prefix(prefix)
                .requestTimeout(Duration.ofSeconds(15))
                .connectTimeout(Duration.ofSeconds(1));
    }

    /** A backend over Azurite, without the probe (the probe has its own tests). */
    static AzureBlobBackend backend(Azurite azurite, String container, String prefix) {
        try {
            return builder(azurite, container, prefix).verifyConditionalWrites(false).build();
        } catch (BackendException e) {
            throw new AssertionError("building without the probe contacts nothing, so cannot fail: " + e, e);
        }
    }

    /** The names of the blobs under {@code prefix}. */
    static List<String> blobsUnder(Azurite azurite, String container, String prefix) {
        BlobContainerClient client = azurite.serviceClient().getBlobContainerClient(container);
        return client.listBlobs(new ListBlobsOptions().setPrefix(prefix), null).stream().map(BlobItem::getName)
                .toList();
    }

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
