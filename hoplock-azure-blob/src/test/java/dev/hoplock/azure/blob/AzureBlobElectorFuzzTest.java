package dev.hoplock.azure.blob;

import dev.hoplock.azure.blob.emulator.Azurite;
import dev.hoplock.azure.blob.emulator.AzuriteExtension;
import dev.hoplock.core.backend.Backend;
import dev.hoplock.test.ElectorFuzzTest;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;

/**
 * The elector fuzz run over {@link AzureBlobBackend} against Azurite, on a container of its own. The TTL is longer
 * than the in-memory run's because every elector's requests queue in one Node.js process.
 */
@ExtendWith(AzuriteExtension.class)
class AzureBlobElectorFuzzTest extends ElectorFuzzTest {

    private final Azurite azurite;

    AzureBlobElectorFuzzTest(Azurite azurite) {
        this.azurite = azurite;
    }

    @Override
    protected Backend backend() {
        return TestAzure.backend(azurite, azurite.newContainer("fuzz"), "");
    }

    @Override
    protected Duration ttl() {
        return Duration.ofMillis(1500);
    }
}
