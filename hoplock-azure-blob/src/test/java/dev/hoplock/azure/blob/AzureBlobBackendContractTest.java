package dev.hoplock.azure.blob;

import dev.hoplock.azure.blob.emulator.Azurite;
import dev.hoplock.azure.blob.emulator.AzuriteExtension;
import dev.hoplock.core.backend.Backend;
import dev.hoplock.test.BackendContractTest;
import dev.hoplock.test.SharedBackend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.UUID;

/**
 * The backend contract, races included, for {@link AzureBlobBackend} against Azurite, on a container of its own
 * that {@link #recreateContainer()} really deletes and creates again. All tests share one backend; the contract gives
 * every test its own keys.
 */
@ExtendWith(AzuriteExtension.class)
class AzureBlobBackendContractTest extends BackendContractTest {

    private static final String CONTAINER = "contract-" + UUID.randomUUID().toString().substring(0, 8);
    private static final SharedBackend<AzureBlobBackend> SHARED = new SharedBackend<>(AzureBlobBackend::close);

    private final Azurite azurite;

    AzureBlobBackendContractTest(Azurite azurite) {
        this.azurite = azurite;
    }

    @Override
    protected Backend backend() throws Exception {
        return SHARED.get(() -> {
            azurite.serviceClient().createBlobContainerIfNotExists(CONTAINER);
            return TestAzure.backend(azurite, CONTAINER, "leases/");
        });
    }

    @AfterAll
    static void closeBackend() throws Exception {
        SHARED.close();
    }

    /** Deletes the container with every blob in it and creates it again under the running backend. */
    @Override
    protected void recreateContainer() {
        var service = azurite.serviceClient();
        service.deleteBlobContainerIfExists(CONTAINER);
        service.createBlobContainer(CONTAINER);
    }

    @Override
    protected Duration timeout() {
        return Duration.ofSeconds(15);
    }

    /**
     * 16 writers per round, not 32: Azurite serves one request at a time in one Node.js process, and every loser of a
     * swap race reads the blob once more (a 412 does not say whether it is missing), so a round of 32 took seconds on
     * the 2 shared cores. 16 writers still race: all are released together by one latch.
     */
    @Override
    protected int raceWriters() {
        return 16;
    }

    @Override
    protected int raceRounds() {
        return 10;
    }
}
