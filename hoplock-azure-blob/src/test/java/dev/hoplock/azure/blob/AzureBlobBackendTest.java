package dev.hoplock.azure.blob;

import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.models.BlobProperties;
import com.azure.storage.blob.specialized.BlobLeaseClientBuilder;
import dev.hoplock.azure.blob.emulator.Azurite;
import dev.hoplock.azure.blob.emulator.AzuriteExtension;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.BackendException.Kind;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.core.record.LeaseRecord;
import dev.hoplock.core.record.LeaseRecordCodec;
import dev.hoplock.s3.server.FaultProxy;
import dev.hoplock.s3.server.FaultProxy.Response;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.hoplock.azure.blob.TestAzure.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * What the Azure Blob store does beyond the backend contract: the stored bytes are the shared lease record unchanged,
 * a retried write refused by its own first attempt counts as written,
 * blob names survive Azure's trailing-dot rule, an empty blob reads with its ETag, Azure's own blob leases on a lease
 * blob are refused with their fix,
 * throttling answers are retried within the call's budget, and a call that runs out of time is an unknown outcome.
 */
@ExtendWith(AzuriteExtension.class)
class AzureBlobBackendTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final Azurite azurite;
    private String container = "";
    private BlobContainerClient raw;

    AzureBlobBackendTest(Azurite azurite) {
        this.azurite = azurite;
    }

    @BeforeEach
    void newContainer() {
        container = azurite.newContainer("backend");
        raw = azurite.serviceClient().getBlobContainerClient(container);
    }

    @Test
    void theBlobIsTheLeaseRecordByteForByteAsJson() throws Exception {
        byte[] record = LeaseRecordCodec.encode(new LeaseRecord(7, Instant.parse("2026-09-08T20:37:00.123456789Z"),
                "node-1", "n-1"));
        try (AzureBlobBackend backend = TestAzure.backend(azurite, container, "prod/")) {
            Handle handle = ((WriteResult.Written) backend.write("billing/leader", Handle.NONE, record, TIMEOUT))
                    .handle();

            BlobProperties properties = raw.getBlobClient("prod/billing/leader").getProperties();
            assertThat(raw.getBlobClient("prod/billing/leader").downloadContent().toBytes()).isEqualTo(record);
            assertThat(properties.getContentType()).isEqualTo("application/json");
            assertThat(handle.value()).isEqualTo(properties.getETag());
        }
    }

    @Test
    void keysThatDifferOnlyByATrailingDotAreTwoBlobs() throws Exception {
        try (AzureBlobBackend backend = TestAzure.backend(azurite, container, "")) {
            backend.write("x/a.", Handle.NONE, bytes("dotted"), TIMEOUT);
            backend.write("x/a", Handle.NONE, bytes("plain"), TIMEOUT);

            assertThat(backend.read("x/a.", TIMEOUT).orElseThrow().content()).isEqualTo(bytes("dotted"));
            assertThat(backend.read("x/a", TIMEOUT).orElseThrow().content()).isEqualTo(bytes("plain"));
            assertThat(TestAzure.blobsUnder(azurite, container, "x/")).containsExactlyInAnyOrder("x/a.~", "x/a");
        }
    }

    @Test
    void anEmptyBlobReadsAsEmptyContentWithItsETag() throws Exception {
        raw.getBlobClient("empty").getBlockBlobClient().upload(new java.io.ByteArrayInputStream(new byte[0]), 0);
        try (AzureBlobBackend backend = TestAzure.backend(azurite, container, "")) {
            StoredObject stored = backend.read("empty", TIMEOUT).orElseThrow();

            assertThat(stored.content()).isEmpty();
            assertThat(stored.handle().value()).isEqualTo(raw.getBlobClient("empty").getProperties().getETag());
            assertThat(backend.write("empty", stored.handle(), bytes("now a record"), TIMEOUT))
                    .isInstanceOf(WriteResult.Written.class);
        }
    }

    @Test
    void anAzureBlobLeaseOnTheBlobIsRefusedNamingTheFix() throws Exception {
        try (AzureBlobBackend backend = TestAzure.backend(azurite, container, "")) {
            Handle handle = ((WriteResult.Written) backend.write("leased", Handle.NONE, bytes("a"), TIMEOUT)).handle();
            new BlobLeaseClientBuilder().blobClient(raw.getBlobClient("leased")).buildClient().acquireLease(-1);

            BackendException e = catchThrowableOfType(BackendException.class,
                    () -> backend.write("leased", handle, bytes("b"), TIMEOUT));

            assertThat(e.kind()).isEqualTo(Kind.MISCONFIGURED);
            assertThat(e.getMessage()).contains("an Azure blob lease (not hoplock's)", "az storage blob lease break");
        }
    }

    @Test
    void aRetriedWriteRefusedBecauseItsFirstAttemptWroteCountsAsWritten() throws Exception {
        AtomicInteger loseFirst = new AtomicInteger(1);
        try (FaultProxy proxy = FaultProxy.start(URI.create("http://127.0.0.1:" + azurite.port()));
             AzureBlobBackend backend = throughProxy(proxy)) {
            Handle created = ((WriteResult.Written) backend.write("k", Handle.NONE, bytes("a"), TIMEOUT)).handle();
            // The swap reaches the store and takes effect, but its answer is lost (500): the SDK sends it again, and
            // the If-Match of the retry fails on the version the first attempt wrote.
            proxy.rewrite((request, response) -> request.method().equals("PUT") && loseFirst.getAndDecrement() > 0
                    ? serverBusy() : response);

            WriteResult swapped = backend.write("k", created, bytes("b"), TIMEOUT);

            assertThat(swapped).isInstanceOf(WriteResult.Written.class);
            assertThat(proxy.requests("PUT")).as("the create, the swap and its retry").hasSize(3);
            StoredObject now = backend.read("k", TIMEOUT).orElseThrow();
            assertThat(now.content()).isEqualTo(bytes("b"));
            assertThat(now.handle()).isEqualTo(((WriteResult.Written) swapped).handle());
        }
    }

    /**
     * A refused write whose follow-up read fails cannot tell "my own retried write" from "someone else's": the swap's
     * first attempt takes effect but its answer is lost, the SDK's retry is refused (412) by that very write, and the
     * read that would find this call's write id fails too. The outcome is unknown (TRANSIENT), never a refusal: the
     * write did take effect.
     */
    @Test
    void aRefusedWriteWhoseFollowUpReadFailsIsAnUnknownOutcomeNeverARefusal() throws Exception {
        AtomicInteger loseFirst = new AtomicInteger(1);
        try (FaultProxy proxy = FaultProxy.start(URI.create("http://127.0.0.1:" + azurite.port()));
             AzureBlobBackend backend = throughProxy(proxy)) {
            Handle created = ((WriteResult.Written) backend.write("k", Handle.NONE, bytes("a"), TIMEOUT)).handle();
            proxy.rewrite((request, response) -> request.method().equals("PUT") && loseFirst.getAndDecrement() > 0
                    ? serverBusy() : response);
            proxy.intercept(r -> r.method().equals("GET") ? serverBusy() : null);

            BackendException e = catchThrowableOfType(BackendException.class,
                    () -> backend.write("k", created, bytes("b"), TIMEOUT));

            assertThat(e).as("an unknown outcome, not a result").isNotNull();
            assertThat(e.kind()).isEqualTo(Kind.TRANSIENT);
            assertThat(e.getMessage()).contains("refused a Put Blob", "could not be read to tell whether an earlier"
                    + " attempt of this same call", "503 ServerBusy", "the outcome of the Put Blob is unknown");
            assertThat(proxy.requests("PUT")).as("the create, the swap and its refused retry").hasSize(3);
            assertThat(proxy.requests("GET")).as("the follow-up read was tried").isNotEmpty();
            proxy.intercept(r -> null);
            assertThat(backend.read("k", TIMEOUT).orElseThrow().content()).as("the write took effect")
                    .isEqualTo(bytes("b"));
        }
    }

    @Test
    void aRefusedWriteWhoseFollowUpReadSucceedsIsStillATypedRefusal() throws Exception {
        try (FaultProxy proxy = FaultProxy.start(URI.create("http://127.0.0.1:" + azurite.port()));
             AzureBlobBackend backend = throughProxy(proxy)) {
            Handle first = ((WriteResult.Written) backend.write("k", Handle.NONE, bytes("a"), TIMEOUT)).handle();
            backend.write("k", first, bytes("b"), TIMEOUT);
            proxy.clearRequests();

            assertThat(backend.write("k", first, bytes("c"), TIMEOUT)).isEqualTo(WriteResult.preconditionFailed());
            assertThat(backend.write("k", Handle.NONE, bytes("c"), TIMEOUT)).isEqualTo(WriteResult.preconditionFailed());
            assertThat(backend.write("gone", first, bytes("c"), TIMEOUT)).isEqualTo(WriteResult.notFound());
            assertThat(proxy.requests("GET")).as("one follow-up read per refusal").hasSize(3);
        }
    }

    @Test
    void serverBusyAnswersAreRetriedWithinTheCallsBudget() throws Exception {
        AtomicInteger busy = new AtomicInteger(2);
        try (FaultProxy proxy = FaultProxy.start(URI.create("http://127.0.0.1:" + azurite.port()))) {
            proxy.intercept(r -> r.method().equals("PUT") && busy.getAndDecrement() > 0 ? serverBusy() : null);
            try (AzureBlobBackend backend = throughProxy(proxy)) {
                assertThat(backend.write("busy", Handle.NONE, bytes("a"), TIMEOUT))
                        .isInstanceOf(WriteResult.Written.class);
                assertThat(proxy.requests("PUT")).as("two 503 answers, then the write").hasSize(3);
            }
        }
    }

    @Test
    void aStoreThatKeepsAnsweringServerBusyIsATransientFailureWithAnUnknownOutcome() {
        try (FaultProxy proxy = FaultProxy.start(URI.create("http://127.0.0.1:" + azurite.port()))) {
            proxy.intercept(r -> r.method().equals("PUT") ? serverBusy() : null);
            try (AzureBlobBackend backend = throughProxy(proxy)) {
                BackendException e = catchThrowableOfType(BackendException.class,
                        () -> backend.write("busy", Handle.NONE, bytes("a"), TIMEOUT));

                assertThat(e.kind()).isEqualTo(Kind.TRANSIENT);
                assertThat(e.getMessage()).contains("the outcome of the Put Blob is unknown");
            }
        }
    }

    @Test
    void aReadAnsweredServerBusyUntilItsBudgetEndsIsATransientErrorWithoutAnOutcome() throws Exception {
        try (FaultProxy proxy = FaultProxy.start(URI.create("http://127.0.0.1:" + azurite.port()))) {
            proxy.intercept(r -> r.method().equals("GET") ? serverBusy() : null);
            try (AzureBlobBackend backend = throughProxy(proxy)) {
                BackendException e = catchThrowableOfType(BackendException.class,
                        () -> backend.read("busy", TIMEOUT));

                assertThat(e.kind()).isEqualTo(Kind.TRANSIENT);
                assertThat(e.isRetryable()).isTrue();
                assertThat(e.getMessage()).contains("503", "ServerBusy", "Get Blob").doesNotContain("outcome");
                assertThat(proxy.requests("GET")).as("the SDK retried the read").hasSizeGreaterThan(1);
            }
        }
    }

    /**
     * Throttling is retried only within the call's own budget (the lease's time left), never past it: each 503 here
     * takes the store 1 s, so the SDK's four attempts alone would take over 4 s; the call returns after its 400 ms.
     */
    @Test
    void serverBusyIsRetriedOnlyWithinTheCallsBudgetNeverPastIt() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (FaultProxy proxy = FaultProxy.start(URI.create("http://127.0.0.1:" + azurite.port()))) {
            proxy.intercept(r -> {
                if (!r.method().equals("PUT")) {
                    return null;
                }
                try {
                    release.await(1, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return serverBusy();
            });
            try (AzureBlobBackend backend = throughProxy(proxy)) {
                long start = System.nanoTime();
                BackendException e = catchThrowableOfType(BackendException.class,
                        () -> backend.write("busy", Handle.NONE, bytes("a"), Duration.ofMillis(400)));
                long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                release.countDown();

                assertThat(e.kind()).isEqualTo(Kind.TRANSIENT);
                assertThat(e.getMessage()).contains("within 400 ms", "the outcome of the Put Blob is unknown");
                assertThat(took).as("returned within its 400 ms budget plus scheduling slack").isLessThan(2_500);
            }
        }
    }

    @Test
    void aCallThatRunsOutOfTimeIsATransientFailureWithAnUnknownOutcomeWithinItsTimeout() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (FaultProxy proxy = FaultProxy.start(URI.create("http://127.0.0.1:" + azurite.port()))) {
            proxy.intercept(r -> {
                if (!r.method().equals("PUT")) {
                    return null;
                }
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return serverBusy();
            });
            try (AzureBlobBackend backend = throughProxy(proxy)) {
                long start = System.nanoTime();
                BackendException e = catchThrowableOfType(BackendException.class,
                        () -> backend.write("stalled", Handle.NONE, bytes("a"), Duration.ofMillis(700)));
                long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                release.countDown();

                assertThat(e.kind()).isEqualTo(Kind.TRANSIENT);
                assertThat(e.getMessage()).contains("no final answer", "within 700 ms",
                        "the outcome of the Put Blob is unknown");
                assertThat(took).as("returned within its timeout plus scheduling slack").isLessThan(5_000);
            }
        }
    }

    private AzureBlobBackend throughProxy(FaultProxy proxy) {
        try {
            return AzureBlobBackend.builder().connectionString("DefaultEndpointsProtocol=http;AccountName="
                            + Azurite.ACCOUNT + ";AccountKey=" + Azurite.ACCOUNT_KEY + ";BlobEndpoint="
                            + proxy.endpoint() + "/" + Azurite.ACCOUNT + ";")
                    .container(container).requestTimeout(Duration.ofSeconds(10)).verifyConditionalWrites(false)
                    .build();
        } catch (BackendException e) {
            throw new AssertionError(e);
        }
    }

    private static Response serverBusy() {
        String xml = "<?xml version=\"1.0\" encoding=\"utf-8\"?><Error><Code>ServerBusy</Code><Message>Ingress is over"
                + " the account limit.\nRequestId:r-2</Message></Error>";
        return new Response(503, Map.of("Content-Type", "application/xml", "x-ms-error-code", "ServerBusy"),
                xml.getBytes(StandardCharsets.UTF_8));
    }
}
