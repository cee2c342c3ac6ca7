package dev.hoplock.azure.blob;

import dev.hoplock.azure.blob.emulator.Azurite;
import dev.hoplock.azure.blob.emulator.AzuriteExtension;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.BackendException.Kind;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.StoreCapabilities;
import dev.hoplock.core.backend.StoreCapabilities.Capability;
import dev.hoplock.core.backend.StoreCapabilities.Support;
import dev.hoplock.core.backend.StoreNotCapableException;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.s3.server.FaultProxy;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.URI;
import java.time.Duration;
import java.util.Map;

import static dev.hoplock.azure.blob.TestAzure.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The conditional-write probe accepts Azurite and refuses a store that ignores the conditional headers: Azurite behind
 * a proxy that drops them, as a faking proxy or a careless emulator would. The proxied clients use a SAS, whose
 * signature covers no header (a Shared Key signature covers If-Match, so a dropped header would be refused as a bad
 * signature instead).
 */
@ExtendWith(AzuriteExtension.class)
class AzureBlobProbeTest {

    private final Azurite azurite;
    private String container = "";

    AzureBlobProbeTest(Azurite azurite) {
        this.azurite = azurite;
    }

    @BeforeEach
    void newContainer() {
        container = azurite.newContainer("probe");
    }

    @Test
    void azuritePassesEveryCheckAndTheProbeCleansUp() throws Exception {
        try (AzureBlobBackend backend = TestAzure.builder(azurite, container, "p/").build()) {
            StoreCapabilities capabilities = backend.verify();

            assertThat(capabilities.support().values()).containsOnly(Support.VERIFIED);
            assertThat(capabilities.store()).isEqualTo(azurite.endpoint() + "/" + container + "/p/");
        }
        assertThat(TestAzure.blobsUnder(azurite, container, "")).as("probe blobs removed").isEmpty();
    }

    @Test
    void aStoreThatIgnoresIfNoneMatchIsRefusedAtBuildNamingTheRisk() {
        try (FaultProxy proxy = FaultProxy.start(URI.create("http://127.0.0.1:" + azurite.port()))) {
            proxy.mapRequest(r -> r.method().equals("PUT") ? r.withoutHeader("If-None-Match") : r);

            BackendException e = catchThrowableOfType(BackendException.class, () -> throughProxy(proxy).build());

            assertThat(e).isNotNull();
            assertThat(e.kind()).isEqualTo(Kind.CONDITIONAL_WRITES_NOT_SUPPORTED);
            assertThat(e.getMessage()).contains(proxy.endpoint() + "/" + Azurite.ACCOUNT + "/" + container,
                    "does not honour conditional writes",
                    "accepted a second Put Blob with If-None-Match: * although the blob already existed",
                    "two leaders could coexist", "verifyConditionalWrites(false)");
        }
        assertThat(TestAzure.blobsUnder(azurite, container, "")).as("probe blobs removed").isEmpty();
    }

    @Test
    void aStoreThatIgnoresIfMatchOnPutIsRefused() {
        try (FaultProxy proxy = FaultProxy.start(URI.create("http://127.0.0.1:" + azurite.port()))) {
            proxy.mapRequest(r -> r.method().equals("PUT") ? r.withoutHeader("If-Match") : r);

            BackendException e = catchThrowableOfType(BackendException.class, () -> throughProxy(proxy).build());

            assertThat(e.kind()).isEqualTo(Kind.CONDITIONAL_WRITES_NOT_SUPPORTED);
            assertThat(e.getMessage()).contains("accepted a Put Blob with If-Match and a stale ETag");
        }
    }

    @Test
    void aStoreThatReallyIgnoresTheHeadersLetsTwoCreatesWinWhichIsWhatTheProbeGuardsAgainst() throws Exception {
        try (FaultProxy proxy = FaultProxy.start(URI.create("http://127.0.0.1:" + azurite.port()))) {
            proxy.mapRequest(r -> r.method().equals("PUT") ? r.withoutHeader("If-None-Match") : r);
            try (AzureBlobBackend unverified = throughProxy(proxy).verifyConditionalWrites(false).build()) {
                assertThat(unverified.write("leader", Handle.NONE, bytes("node-1"), Duration.ofSeconds(10)))
                        .isInstanceOf(WriteResult.Written.class);
                assertThat(unverified.write("leader", Handle.NONE, bytes("node-2"), Duration.ofSeconds(10)))
                        .isInstanceOf(WriteResult.Written.class);
            }
        }
    }

    @Test
    void aStoreThatIgnoresIfMatchOnDeleteIsAcceptedForReleaseByPutAndRefusedForReleaseByDelete() throws Exception {
        try (FaultProxy proxy = FaultProxy.start(URI.create("http://127.0.0.1:" + azurite.port()))) {
            proxy.mapRequest(r -> r.method().equals("DELETE") ? r.withoutHeader("If-Match") : r);
            try (AzureBlobBackend backend = throughProxy(proxy).build()) {
                StoreCapabilities capabilities = backend.verify();

                assertThat(capabilities.support()).containsOnly(
                        Map.entry(Capability.CONDITIONAL_CREATE, Support.VERIFIED),
                        Map.entry(Capability.CONDITIONAL_SWAP, Support.VERIFIED),
                        Map.entry(Capability.CONDITIONAL_DELETE, Support.NOT_SUPPORTED));
                assertThat(capabilities.detail(Capability.CONDITIONAL_DELETE))
                        .contains("answered DELETED to a Delete Blob with If-Match and a stale ETag");
                assertThatCode(() -> capabilities.requireFor(false)).doesNotThrowAnyException();
                StoreNotCapableException e = catchThrowableOfType(StoreNotCapableException.class,
                        () -> capabilities.requireFor(true));
                assertThat(e.getMessage()).contains("does not support conditional delete", "releaseByDelete=true");
            }
        }
    }

    @Test
    void verifyProbesOnceAndRemembersTheReport() throws Exception {
        try (FaultProxy proxy = FaultProxy.start(URI.create("http://127.0.0.1:" + azurite.port()));
             AzureBlobBackend backend = throughProxy(proxy).build()) {
            int probeRequests = proxy.requests().size();

            StoreCapabilities first = backend.verify();
            StoreCapabilities second = backend.verify();

            assertThat(probeRequests).as("requests of the probe at build").isPositive();
            assertThat(proxy.requests()).as("no request after build").hasSize(probeRequests);
            assertThat(second).isSameAs(first);
        }
    }

    @Test
    void withVerificationDeferredBuildSendsNothingAndTheFirstVerifyProbes() throws Exception {
        try (FaultProxy proxy = FaultProxy.start(URI.create("http://127.0.0.1:" + azurite.port()));
             AzureBlobBackend backend = throughProxy(proxy).verifyOnBuild(false).build()) {
            assertThat(proxy.requests()).as("nothing at build").isEmpty();

            assertThat(backend.verify().support().values()).containsOnly(Support.VERIFIED);
            assertThat(proxy.requests()).as("the probe ran on verify()").isNotEmpty();
        }
    }

    @Test
    void withTheProbeOffVerifySendsNothingAndAssumesEveryCapability() throws Exception {
        try (FaultProxy proxy = FaultProxy.start(URI.create("http://127.0.0.1:" + azurite.port()));
             AzureBlobBackend backend = throughProxy(proxy).verifyConditionalWrites(false).build()) {
            assertThat(backend.verify().support().values()).containsOnly(Support.ASSUMED);
            assertThat(proxy.requests()).isEmpty();
        }
    }

    private AzureBlobBackendBuilder throughProxy(FaultProxy proxy) {
        return AzureBlobBackend.builder().endpoint(proxy.endpoint() + "/" + Azurite.ACCOUNT)
                .sasToken(AzureTestSas.forContainer(azurite, container, "rcwd")).container(container)
                .requestTimeout(Duration.ofSeconds(15));
    }
}
