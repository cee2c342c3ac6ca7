package dev.hoplock.dynamodb;

import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.BackendException.Kind;
import dev.hoplock.core.backend.DeleteResult;
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

    /**
     * A refusal of an item that exists, answered as DynamoDB answers it (the item as it was, ALL_OLD): a typed refusal
     * from the answer alone, without a follow-up read. {@link WriteResult.Refused} carries the reason only; the caller
     * reads the current record and handle itself.
     */
    @Test
    void aRefusalThatCarriesTheCurrentItemIsPreconditionFailedWithoutAFollowUpRead() throws Exception {
        try (DynamoDbClient raw = dynalite.client();
             FaultProxy proxy = DynamoProxies.start(dynalite.endpoint());
             DynamoDbBackend backend = TestDynamo.builder(proxy.endpoint(), table, "").verify(false).build()) {
            proxy.rewrite(DynamoProxies.withItemOnConditionFailure(raw, table));
            Handle first = written(backend.write("k", Handle.NONE, bytes("a"), TIMEOUT));
            Handle second = written(backend.write("k", first, bytes("b"), TIMEOUT));
            proxy.clearRequests();

            assertThat(backend.write("k", first, bytes("c"), TIMEOUT)).isEqualTo(WriteResult.preconditionFailed());
            assertThat(backend.write("k", Handle.NONE, bytes("c"), TIMEOUT)).isEqualTo(WriteResult.preconditionFailed());
            assertThat(backend.delete("k", first, TIMEOUT)).isEqualTo(DeleteResult.PRECONDITION_FAILED);

            assertThat(proxy.requests()).extracting(DynamoProxies::call).as("no follow-up read: the answer said why")
                    .containsExactly("PutItem", "PutItem", "DeleteItem");
            assertThat(backend.read("k", TIMEOUT).orElseThrow().handle()).as("nothing changed").isEqualTo(second);
        }
    }

    /** The same with dynalite's own answers, which never carry the item: one strongly consistent read tells why. */
    @Test
    void aRefusalWithoutTheItemIsToldApartByOneConsistentRead() throws Exception {
        try (FaultProxy proxy = DynamoProxies.start(dynalite.endpoint());
             DynamoDbBackend backend = TestDynamo.builder(proxy.endpoint(), table, "").verify(false).build()) {
            Handle first = written(backend.write("k", Handle.NONE, bytes("a"), TIMEOUT));
            written(backend.write("k", first, bytes("b"), TIMEOUT));
            proxy.clearRequests();

            assertThat(backend.write("k", first, bytes("c"), TIMEOUT)).isEqualTo(WriteResult.preconditionFailed());
            assertThat(backend.write("missing", first, bytes("c"), TIMEOUT)).isEqualTo(WriteResult.notFound());

            assertThat(proxy.requests()).extracting(DynamoProxies::call)
                    .containsExactly("PutItem", "GetItem", "PutItem", "GetItem");
            assertThat(proxy.requests()).filteredOn(r -> DynamoProxies.call(r).equals("GetItem"))
                    .allSatisfy(r -> assertThat(DynamoProxies.body(r)).contains("\"ConsistentRead\":true"));
        }
    }

    /** As DynamoDB answers a retry refused by the call's own first attempt: the item carries this call's version. */
    @Test
    void aRetryRefusedByItsOwnFirstAttemptIsWrittenFromTheItemInTheAnswer() throws Exception {
        AtomicInteger loseFirst = new AtomicInteger(1);
        try (DynamoDbClient raw = dynalite.client();
             FaultProxy proxy = DynamoProxies.start(dynalite.endpoint());
             DynamoDbBackend backend = TestDynamo.builder(proxy.endpoint(), table, "").verify(false).build()) {
            Handle created = written(backend.write("k", Handle.NONE, bytes("a"), TIMEOUT));
            var withItem = DynamoProxies.withItemOnConditionFailure(raw, table);
            proxy.rewrite((request, response) -> DynamoProxies.call(request).equals("PutItem")
                    && loseFirst.getAndDecrement() > 0
                    ? DynamoProxies.error(500, "InternalServerError", "Internal server error")
                    : withItem.apply(request, response));
            proxy.clearRequests();

            Handle swapped = written(backend.write("k", created, bytes("b"), TIMEOUT));

            assertThat(proxy.requests()).extracting(DynamoProxies::call).containsExactly("PutItem", "PutItem");
            assertThat(backend.read("k", TIMEOUT).orElseThrow().handle()).isEqualTo(swapped);
        }
    }

    /**
     * A refusal without the item whose follow-up read fails: the refusal may be the call's own first attempt's doing,
     * so the outcome is unknown (TRANSIENT), never a refusal.
     */
    @Test
    void aRefusalWhoseFollowUpReadFailsIsAnUnknownOutcome() throws Exception {
        try (FaultProxy proxy = DynamoProxies.start(dynalite.endpoint());
             DynamoDbBackend backend = TestDynamo.builder(proxy.endpoint(), table, "").verify(false).build()) {
            Handle first = written(backend.write("k", Handle.NONE, bytes("a"), TIMEOUT));
            written(backend.write("k", first, bytes("b"), TIMEOUT));
            proxy.intercept(r -> DynamoProxies.call(r).equals("GetItem")
                    ? DynamoProxies.error(500, "InternalServerError", "Internal server error") : null);

            BackendException e = catchThrowableOfType(BackendException.class,
                    () -> backend.write("k", first, bytes("c"), Duration.ofSeconds(3)));

            assertThat(e).as("an unknown outcome, not a result").isNotNull();
            assertThat(e.kind()).isEqualTo(Kind.TRANSIENT);
            assertThat(e.getMessage()).contains("PutItem of the item lease_key='k' of the table " + table
                    + " was refused, and the item could not be read to tell why", "the outcome of the PutItem is unknown");
        }
    }

    /**
     * A write whose every answer is lost (the proxy forwards it and then drops the connection): the SDK's attempts end
     * without an answer, and the outcome is unknown (TRANSIENT), although the write took effect.
     */
    @Test
    void aWriteWhoseAnswersAreAllLostIsAnUnknownOutcomeThoughItTookEffect() throws Exception {
        try (FaultProxy proxy = DynamoProxies.start(dynalite.endpoint());
             DynamoDbBackend backend = TestDynamo.builder(proxy.endpoint(), table, "").verify(false).build()) {
            proxy.rewrite((request, response) -> {
                if (DynamoProxies.call(request).equals("PutItem")) {
                    throw new IllegalStateException("the answer is lost: the proxy drops the connection");
                }
                return response;
            });

            BackendException e = catchThrowableOfType(BackendException.class,
                    () -> backend.write("k", Handle.NONE, bytes("a"), Duration.ofSeconds(3)));

            assertThat(e).as("an unknown outcome, not a result").isNotNull();
            assertThat(e.kind()).isEqualTo(Kind.TRANSIENT);
            assertThat(e.getMessage()).contains("PutItem", "the outcome of the PutItem is unknown");
            assertThat(backend.read("k", TIMEOUT).orElseThrow().content()).as("the write took effect")
                    .isEqualTo(bytes("a"));
        }
    }

    @Test
    void aThrottledReadIsATransientErrorWithoutAnOutcome() throws Exception {
        try (FaultProxy proxy = DynamoProxies.start(dynalite.endpoint());
             DynamoDbBackend backend = TestDynamo.builder(proxy.endpoint(), table, "").verify(false).build()) {
            proxy.intercept(r -> DynamoProxies.call(r).equals("GetItem") ? DynamoProxies.error(400,
                    "ProvisionedThroughputExceededException", "The level of configured provisioned throughput for"
                            + " the table was exceeded.") : null);

            BackendException e = catchThrowableOfType(BackendException.class,
                    () -> backend.read("k", Duration.ofSeconds(2)));

            assertThat(e.kind()).isEqualTo(Kind.TRANSIENT);
            assertThat(e.isRetryable()).isTrue();
            assertThat(e.getMessage()).contains("GetItem").doesNotContain("outcome");
            assertThat(proxy.requests()).filteredOn(r -> DynamoProxies.call(r).equals("GetItem"))
                    .as("the SDK retried the read").hasSizeGreaterThan(1);
        }
    }

    /**
     * Throttling is retried only within the call's own budget (the lease's time left), never past it: each throttling
     * answer here takes the service 1 s, so the SDK's attempts alone would take many seconds; the call returns after
     * its 400 ms.
     */
    @Test
    void throttlingIsRetriedOnlyWithinTheCallsBudgetNeverPastIt() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (FaultProxy proxy = DynamoProxies.start(dynalite.endpoint());
             DynamoDbBackend backend = TestDynamo.builder(proxy.endpoint(), table, "").verify(false).build()) {
            proxy.intercept(r -> {
                if (!DynamoProxies.call(r).equals("PutItem")) {
                    return null;
                }
                try {
                    release.await(1, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return DynamoProxies.error(400, "ThrottlingException", "Rate of requests exceeds the allowed"
                        + " throughput.");
            });
            long start = System.nanoTime();
            BackendException e = catchThrowableOfType(BackendException.class,
                    () -> backend.write("k", Handle.NONE, bytes("a"), Duration.ofMillis(400)));
            long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            release.countDown();

            assertThat(e.kind()).isEqualTo(Kind.TRANSIENT);
            assertThat(e.getMessage()).contains("within 400 ms", "the outcome of the PutItem is unknown");
            assertThat(took).as("returned within its 400 ms budget plus scheduling slack").isLessThan(2_500);
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

    /** An item over DynamoDB's 400 KB is a configuration error, sent once: never an unknown outcome retried. */
    @Test
    void anItemLargerThanDynamoDbAllowsIsRefusedNamingTheLimit() throws Exception {
        try (FaultProxy proxy = DynamoProxies.start(dynalite.endpoint());
             DynamoDbBackend backend = TestDynamo.builder(proxy.endpoint(), table, "").verify(false).build()) {
            BackendException e = catchThrowableOfType(BackendException.class,
                    () -> backend.write("k", Handle.NONE, new byte[500 * 1024], TIMEOUT));

            assertThat(e.kind()).isEqualTo(Kind.MISCONFIGURED);
            assertThat(e.isRetryable()).isFalse();
            assertThat(e.getMessage()).contains("ValidationException", "larger than DynamoDB's 400 KB limit",
                    "a lease record is at most 64 KiB", "write smaller content").doesNotContain("outcome");
            assertThat(proxy.requests()).extracting(DynamoProxies::call).as("sent once, not retried")
                    .containsExactly("PutItem");
            assertThat(backend.read("k", TIMEOUT)).as("nothing was written").isEmpty();
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
