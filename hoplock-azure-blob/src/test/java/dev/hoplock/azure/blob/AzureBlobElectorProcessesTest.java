package dev.hoplock.azure.blob;

import dev.hoplock.azure.blob.emulator.Azurite;
import dev.hoplock.azure.blob.emulator.AzuriteExtension;
import dev.hoplock.test.process.ElectorProcessesTest;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;
import java.util.UUID;

/**
 * {@link ElectorProcessesTest} on Azurite: three JVMs ({@link AzureElectorMain}), each an elector over an
 * {@link AzureBlobBackend} on one container made for this run and deleted after it; the leader is killed with SIGKILL,
 * the next stopped with SIGTERM.
 */
@ExtendWith(AzuriteExtension.class)
class AzureBlobElectorProcessesTest extends ElectorProcessesTest {

    private final Azurite azurite;
    private String container = "";
    private String prefix = "";

    AzureBlobElectorProcessesTest(Azurite azurite) {
        this.azurite = azurite;
    }

    @Override
    protected void prepareStore() {
        container = azurite.newContainer("procs");
        prefix = "run-" + UUID.randomUUID().toString().substring(0, 8) + "/";
    }

    @Override
    protected void cleanUpStore() {
        azurite.serviceClient().deleteBlobContainerIfExists(container);
    }

    @Override
    protected Class<?> electorMain() {
        return AzureElectorMain.class;
    }

    @Override
    protected List<String> storeArguments() {
        return List.of(azurite.endpoint(), container, prefix);
    }

    @Override
    protected String storeName() {
        return "Azurite";
    }

    @Override
    protected String runName() {
        return container;
    }
}
