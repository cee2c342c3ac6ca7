package dev.hoplock.azure.blob;

import dev.hoplock.azure.blob.emulator.Azurite;
import dev.hoplock.test.process.ElectorChildMain;
import dev.hoplock.test.process.ElectorChildMain.OpenStore;

import java.time.Duration;

/**
 * One elector in its own JVM, for {@link AzureBlobElectorProcessesTest}: {@link ElectorChildMain} over an
 * {@link AzureBlobBackend} on Azurite, built from the account's endpoint and the development account's published key
 * (never passed on the command line). The elector verifies the store before it campaigns.
 *
 * <p>Arguments: blob endpoint, container, prefix, then {@link ElectorChildMain}'s: lease key, owner, TTL in ms, poll
 * interval in ms.
 */
public final class AzureElectorMain {

    private AzureElectorMain() {
    }

    public static void main(String[] args) throws Exception {
        ElectorChildMain.run(args, (store, ttl) -> {
            AzureBlobBackend backend = AzureBlobBackend.builder()
                    .connectionString("DefaultEndpointsProtocol=http;AccountName=" + Azurite.ACCOUNT + ";AccountKey="
                            + Azurite.ACCOUNT_KEY + ";BlobEndpoint=" + store.get(0) + ";")
                    .container(store.get(1)).prefix(store.get(2))
                    .verifyOnBuild(false)
                    .build();
            return new OpenStore(backend, backend);
        });
    }
}
