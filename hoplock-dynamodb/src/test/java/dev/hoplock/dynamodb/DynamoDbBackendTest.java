package dev.hoplock.dynamodb;

import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.BackendException.Kind;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.core.record.LeaseRecord;
import dev.hoplock.core.record.LeaseRecordCodec;
import dev.hoplock.dynamodb.emulator.Dynalite;
import dev.hoplock.dynamodb.emulator.DynaliteExtension;
import dev.hoplock.s3.server.FaultProxy;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.hoplock.dynamodb.TestDynamo.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * What the DynamoDB store does beyond the backend contract: the item holds the shared lease record unchanged and a
 * fresh random version, reads are strongly consistent, a retried write refused by its own first attempt counts as
 * written, throttling is retried within the call's budget, a call that runs out of time is an unknown outcome, and an
 * oversized record or a foreign item is refused with its fix.
 */
@ExtendWith(DynaliteExtension.class)
class DynamoDbBackendTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final Dynalite dynalite;
    private String table = "";

    DynamoDbBackendTest(Dynalite dynalite) {
        this.dynalite = dynalite;
    }

    @BeforeEach
    void newTable() {
        table = dynalite.newTable("backend");
    }

    @Test
    void theItemHoldsTheLeaseRecordByteForByteAndAVersionThatIsNewAtEveryWrite() throws Exception {
        byte[] record = LeaseRecordCodec.encode(new LeaseRecord(7, Instant.parse("2026-09-08T20:37:00.123456789Z"),
                "node-1", "n-1"));
        try (DynamoDbBackend backend = TestDynamo.backend(dynalite, table, "prod/");
             DynamoDbClient raw = dynalite.client()) {
            Handle first = written(backend.write("billing/leader", Handle.NONE, record, TIMEOUT));
            Handle second = written(backend.write("billing/leader", first, record, TIMEOUT));

            Map<String, AttributeValue> item = raw.getItem(get -> get.tableName(table).consistentRead(true)
                    .key(Map.of("lease_key", AttributeValue.fromS("prod/billing/leader")))).item();
            assertThat(Objects.requireNonNull(item.get("record"), "record").b().asByteArray()).isEqualTo(record);
            assertThat(Objects.requireNonNull(item.get("version"), "version").s()).isEqualTo(second.value()).hasSize(22);
            assertThat(second).as("the same bytes written again get a new version").isNotEqualTo(first);
            assertThat(item).containsOnlyKeys("lease_key", "record", "version");
        }
    }

    @Test
    void everyReadIsStronglyConsistent() throws Exception {
        try (FaultProxy proxy = DynamoProxies.start(dynalite.endpoint());
             DynamoDbBackend backend = TestDynamo.builder(proxy.endpoint(), table, "").verify(false).build()) {
            backend.write("k", Handle.NONE, bytes("a"), TIMEOUT);
            backend.read("k", TIMEOUT);
            backend.delete("k", Handle.NONE, TIMEOUT);

            assertThat(proxy.requests()).filteredOn(r -> DynamoProxies.call(r).equals("GetItem")).hasSize(2)
                    .allSatisfy(r -> assertThat(DynamoProxies.body(r)).contains("\"ConsistentRead\":true"));
        }
    }

    @Test
    void aRetriedWriteRefusedBecauseItsFirstAttemptWroteCountsAsWritten() throws Exception {
        AtomicInteger failFirst = new AtomicInteger(1);
        try (FaultProxy proxy = DynamoProxies.start(dynalite.endpoint());
             DynamoDbBackend backend = TestDynamo.builder(proxy.endpoint(), table, "").verify(false).build()) {
            Handle created = written(backend.write("k", Handle.NONE, bytes("a"), TIMEOUT));
            // The swap reaches the store and takes effect, but its answer is lost (500): the SDK sends it again, and
            // the condition of the retry fails on the version the first attempt wrote.
            proxy.rewrite((request, response) -> DynamoProxies.call(request).equals("PutItem")
                    && failFirst.getAndDecrement() > 0
                    ? DynamoProxies.error(500, "InternalServerError", "Internal server error") : response);

            Handle swapped = written(backend.write("k", created, bytes("b"), TIMEOUT));

            assertThat(proxy.requests()).filteredOn(r -> DynamoProxies.call(r).equals("PutItem")).hasSize(3);
            assertThat(backend.read("k", TIMEOUT).orElseThrow().handle()).isEqualTo(swapped);
            assertThat(backend.read("k", TIMEOUT).orElseThrow().content()).isEqualTo(bytes("b"));
        }
    }

    @Test
    void throttlingIsRetriedWithinTheCallsBudget() throws Exception {
        AtomicInteger throttled = new AtomicInteger(2);
        try (FaultProxy proxy = DynamoProxies.start(dynalite.endpoint());
             DynamoDbBackend backend = TestDynamo.builder(proxy.endpoint(), table, "").verify(false).build()) {
            proxy.intercept(r -> DynamoProxies.call(r).equals("PutItem") && throttled.getAndDecrement() > 0
                    ? DynamoProxies.error(400, "ProvisionedThroughputExceededException", "The level of configured"
                    + " provisioned throughput for the table was exceeded.") : null);

            assertThat(backend.write("k", Handle.NONE, bytes("a"), TIMEOUT)).isInstanceOf(WriteResult.Written.class);
            assertThat(proxy.requests()).filteredOn(r -> DynamoProxies.call(r).equals("PutItem")).hasSize(3);
        }
    }

    @Test
    void throttlingThatDoesNotEndIsATransientFailureWithAnUnknownOutcome() throws Exception {
        try (FaultProxy proxy = DynamoProxies.start(dynalite.endpoint());
             DynamoDbBackend backend = TestDynamo.builder(proxy.endpoint(), table, "").verify(false).build()) {
            proxy.intercept(r -> DynamoProxies.call(r).equals("PutItem") ? DynamoProxies.error(400,
                    "ThrottlingException", "Rate of requests exceeds the allowed throughput.") : null);

            BackendException e = catchThrowableOfType(BackendException.class,
                    () -> backend.write("k", Handle.NONE, bytes("a"), Duration.ofSeconds(3)));

            assertThat(e.kind()).isEqualTo(Kind.TRANSIENT);
            assertThat(e.getMessage()).contains("the outcome of the PutItem is unknown");
        }
    }

    @Test
    void aCallThatRunsOutOfTimeIsATransientFailureWithAnUnknownOutcomeWithinItsTimeout() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (FaultProxy proxy = DynamoProxies.start(dynalite.endpoint());
             DynamoDbBackend backend = TestDynamo.builder(proxy.endpoint(), table, "").verify(false).build()) {
            // The stalled request is answered by the proxy itself, never forwarded: dynalite ends its process when a
            // client drops a connection in the middle of a request (see Dynalite).
            proxy.intercept(r -> {
                if (!DynamoProxies.call(r).equals("PutItem")) {
                    return null;
                }
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return DynamoProxies.error(500, "InternalServerError", "released by the test");
            });
            long start = System.nanoTime();
            BackendException e = catchThrowableOfType(BackendException.class,
                    () -> backend.write("k", Handle.NONE, bytes("a"), Duration.ofMillis(700)));
            long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            release.countDown();

            assertThat(e.kind()).isEqualTo(Kind.TRANSIENT);
            assertThat(e.getMessage()).contains("no final answer", "within 700 ms",
                    "the outcome of the PutItem is unknown");
            assertThat(took).as("returned within its timeout plus scheduling slack").isLessThan(5_000);
        }
    }

    @Test
    void anItemLargerThanDynamoDbAllowsIsRefusedNamingTheLimit() throws Exception {
        try (DynamoDbBackend backend = TestDynamo.backend(dynalite, table, "")) {
            BackendException e = catchThrowableOfType(BackendException.class,
                    () -> backend.write("k", Handle.NONE, new byte[500 * 1024], TIMEOUT));

            assertThat(e.kind()).isEqualTo(Kind.MISCONFIGURED);
            assertThat(e.getMessage()).contains("ValidationException", "larger than DynamoDB's 400 KB limit",
                    "a lease record is at most 64 KiB");
        }
    }

    @Test
    void anItemWrittenBySomethingElseIsRefusedNamingIt() throws Exception {
        try (DynamoDbBackend backend = TestDynamo.backend(dynalite, table, "");
             DynamoDbClient raw = dynalite.client()) {
            raw.putItem(put -> put.tableName(table).item(Map.of("lease_key", AttributeValue.fromS("foreign"),
                    "owner", AttributeValue.fromS("someone"))));

            BackendException e = catchThrowableOfType(BackendException.class, () -> backend.read("foreign", TIMEOUT));

            assertThat(e.kind()).isEqualTo(Kind.MISCONFIGURED);
            assertThat(e.getMessage()).contains("item lease_key='foreign' of the table " + table,
                    "is not a hoplock lease", "a table (or prefix) of its own");
        }
    }

    @Test
    void aTableDeletedUnderTheBackendIsAMissingContainerNamingTheFix() throws Exception {
        try (DynamoDbBackend backend = TestDynamo.backend(dynalite, table, "")) {
            dynalite.deleteTable(table);

            BackendException e = catchThrowableOfType(BackendException.class, () -> backend.read("k", TIMEOUT));

            assertThat(e.kind()).isEqualTo(Kind.MISSING_CONTAINER);
            assertThat(e.getMessage()).contains("the DynamoDB table '" + table + "' does not exist", "create it");
        }
    }

    private static Handle written(WriteResult result) {
        assertThat(result).isInstanceOf(WriteResult.Written.class);
        return ((WriteResult.Written) result).handle();
    }
}
