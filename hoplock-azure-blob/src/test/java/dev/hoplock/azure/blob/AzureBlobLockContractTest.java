package dev.hoplock.azure.blob;

import dev.hoplock.azure.blob.emulator.Azurite;
import dev.hoplock.azure.blob.emulator.AzuriteExtension;
import dev.hoplock.core.backend.Backend;
import dev.hoplock.test.LockContractTest;
import dev.hoplock.test.SharedBackend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.UUID;

/**
 * The named-lock contract for {@link AzureBlobBackend} against Azurite. All tests share one backend and one container;
 * the contract gives every test its own lock names.
 */
@ExtendWith(AzuriteExtension.class)
class AzureBlobLockContractTest extends LockContractTest {

    private static final SharedBackend<AzureBlobBackend> SHARED = new SharedBackend<>(AzureBlobBackend::close);

    private final Azurite azurite;

    AzureBlobLockContractTest(Azurite azurite) {
        this.azurite = azurite;
    }

    @Override
    protected Backend backend() throws Exception {
        return SHARED.get(() -> TestAzure.backend(azurite, azurite.newContainer("locks"),
                "locks-" + UUID.randomUUID().toString().substring(0, 8) + "/"));
    }

    @AfterAll
    static void closeBackend() throws Exception {
        SHARED.close();
    }
}
