package dev.hoplock.dynamodb;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.CallBudget;
import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.StoreCapabilities;
import dev.hoplock.core.backend.StoreCapabilities.Capability;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@link Backend} over one DynamoDB table, for any number of lease keys: each lease is one item whose partition key
 * is the (prefixed) lease key, with the lease record's bytes, unchanged, in {@value LeaseItem#RECORD} and a version
 * that is new at every write in {@value LeaseItem#VERSION}, which is the {@link Handle}.
 *
 * <h2>Protocol</h2>
 * <table>
 *   <caption>One request per operation (a refusal without the item in the answer adds one read, see below)</caption>
 *   <tr><th>operation</th><th>request</th><th>answers</th></tr>
 *   <tr><td>read</td><td>{@code GetItem}, {@code ConsistentRead=true}</td><td>the item, or none</td></tr>
 *   <tr><td>create</td><td>{@code PutItem} with {@code attribute_not_exists(<key>)}</td>
 *       <td>written; {@code ConditionalCheckFailedException}: refused</td></tr>
 *   <tr><td>swap</td><td>{@code PutItem} with {@code version = :expected}</td><td>written; refused</td></tr>
 *   <tr><td>delete</td><td>{@code DeleteItem} with {@code version = :expected}</td><td>deleted; refused</td></tr>
 * </table>
 * Every conditional request asks for the item as it was when the condition failed
 * ({@code ReturnValuesOnConditionCheckFailure=ALL_OLD}). An answer with the item says why: another version, or, if it
 * carries the very version this call wrote, an SDK retry of a write whose first attempt had already succeeded, which
 * is reported as written. An answer without it (an item that does not exist, or an emulator that does not return
 * it) is followed by one strongly consistent read that tells {@code NOT_FOUND} from {@code PRECONDITION_FAILED} (and
 * finds this call's own version the same way).
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>Linearisable as far as DynamoDB is within one region: conditional writes on one item are serialised, and
 *       every read is strongly consistent ({@code ConsistentRead=true}). No index is ever read (a global secondary
 *       index is eventually consistent), and a global table is refused by the start-up check ({@link #verify()}),
 *       because its replicas are written asynchronously.</li>
 *   <li>Handles never repeat: a version is 128 random bits, never a counter, so a stale holder's handle matches
 *       nothing, also after the table was deleted and created again.</li>
 *   <li>Each call, its follow-up read included, takes at most its {@code timeout}, capped by the configured
 *       {@linkplain DynamoDbBackendBuilder#requestTimeout(Duration) request timeout} ({@link CallBudget}): it is the
 *       SDK's API-call timeout, so the SDK's retries of throttling ({@code ProvisionedThroughputExceededException},
 *       {@code ThrottlingException}) and 5xx answers happen inside it. A call that runs out of time is a
 *       {@link BackendException.Kind#TRANSIENT} failure: for a write or delete the outcome is unknown.</li>
 *   <li>Expiry is judged by hoplock alone, from the record: DynamoDB's own TTL deletes expired items lazily (days
 *       later) and hoplock writes no TTL attribute, so DynamoDB never removes a lease.</li>
 *   <li>Every other failure is a {@link BackendException} whose kind and message say what to do, naming the table and
 *       endpoint; no message, log line or {@link #toString()} contains credentials.</li>
 * </ul>
 *
 * <p>Thread-safe. {@link #close()} closes the DynamoDB client only if the builder created it.
 */
public final class DynamoDbBackend implements Backend, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(DynamoDbBackend.class);
    /** The SDK refuses a zero call timeout: a request sent with what is left gets at least this. */
    private static final Duration SDK_MINIMUM_TIMEOUT = Duration.ofMillis(1);

    private final DynamoDbClient client;
    private final boolean ownsClient;
    private final LeaseTable table;
    private final Duration requestTimeout;
    private final DynamoDbErrors errors;
    private final TableCreation creation;
    private final boolean check;
    private final Object verifying = new Object();
    private volatile @Nullable StoreCapabilities verified;

    DynamoDbBackend(DynamoDbClient client, boolean ownsClient, LeaseTable table, Duration requestTimeout,
            Redaction redaction, TableCreation creation, boolean check) {
        this.client = Objects.requireNonNull(client, "client");
        this.ownsClient = ownsClient;
        this.table = Objects.requireNonNull(table, "table");
        this.requestTimeout = Objects.requireNonNull(requestTimeout, "requestTimeout");
        this.errors = new DynamoDbErrors(table, redaction);
        this.creation = Objects.requireNonNull(creation, "creation");
        this.check = check;
    }

    /** Starts the configuration of a DynamoDB backend. */
    public static DynamoDbBackendBuilder builder() {
        return new DynamoDbBackendBuilder();
    }

    @Override
    public Optional<StoredObject> read(String key, Duration timeout) throws BackendException {
        String itemKey = table.itemKey(key);
        return read(itemKey, budget(timeout));
    }

    @Override
    public WriteResult write(String key, Handle expected, byte[] content, Duration timeout) throws BackendException {
        Objects.requireNonNull(expected, "expected");
        Objects.requireNonNull(content, "content");
        String itemKey = table.itemKey(key);
        CallBudget budget = budget(timeout);
        String version = LeaseItem.newVersion();
        Map<String, AttributeValue> item = LeaseItem.item(table, itemKey, content, version);
        try {
            client.putItem(put -> {
                put.tableName(table.name()).item(item)
                        .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                        .overrideConfiguration(callTimeout(budget));
                if (expected.isNone()) {
                    put.conditionExpression("attribute_not_exists(#k)")
                            .expressionAttributeNames(Map.of("#k", table.keyAttribute()));
                } else {
                    put.conditionExpression("#v = :expected")
                            .expressionAttributeNames(Map.of("#v", LeaseItem.VERSION))
                            .expressionAttributeValues(Map.of(":expected", AttributeValue.fromS(expected.value())));
                }
            });
            return WriteResult.written(Handle.of(version));
        } catch (ConditionalCheckFailedException e) {
            Optional<StoredObject> now = e.hasItem() && !e.item().isEmpty()
                    ? Optional.of(LeaseItem.stored(table, itemKey, e.item()))
                    : reread(itemKey, budget, DynamoDbOperation.PUT_ITEM);
            if (now.isPresent() && now.get().handle().value().equals(version)) {
                log.debug("hoplock: a retried PutItem of {} was refused because its first attempt had written it",
                        table.item(itemKey));
                return WriteResult.written(Handle.of(version));
            }
            return now.isEmpty() && !expected.isNone() ? WriteResult.notFound() : WriteResult.preconditionFailed();
        } catch (SdkException e) {
            throw errors.translate(e, DynamoDbOperation.PUT_ITEM, table.item(itemKey), budget.budget());
        }
    }

    @Override
    public DeleteResult delete(String key, Handle expected, Duration timeout) throws BackendException {
        Objects.requireNonNull(expected, "expected");
        String itemKey = table.itemKey(key);
        CallBudget budget = budget(timeout);
        if (expected.isNone()) {
            // "Remove the item if there is none" never removes anything: only the reason is looked up.
            return read(itemKey, budget).isPresent() ? DeleteResult.PRECONDITION_FAILED : DeleteResult.NOT_FOUND;
        }
        try {
            client.deleteItem(delete -> delete.tableName(table.name()).key(key(itemKey))
                    .conditionExpression("#v = :expected")
                    .expressionAttributeNames(Map.of("#v", LeaseItem.VERSION))
                    .expressionAttributeValues(Map.of(":expected", AttributeValue.fromS(expected.value())))
                    .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                    .overrideConfiguration(callTimeout(budget)));
            return DeleteResult.DELETED;
        } catch (ConditionalCheckFailedException e) {
            boolean exists = e.hasItem() && !e.item().isEmpty()
                    || reread(itemKey, budget, DynamoDbOperation.DELETE_ITEM).isPresent();
            return exists ? DeleteResult.PRECONDITION_FAILED : DeleteResult.NOT_FOUND;
        } catch (SdkException e) {
            throw errors.translate(e, DynamoDbOperation.DELETE_ITEM, table.item(itemKey), budget.budget());
        }
    }

    /**
     * Runs the start-up check once and reports what the store honours; later calls return the remembered report
     * without a request. The check: the table exists (or is created with {@link TableCreation#CREATE_IF_MISSING}),
     * serves requests (ACTIVE or UPDATING; CREATING is waited for), has exactly the partition key hoplock writes and is
     * no global table ({@link TableCheck}); then the conditional-write probe on a side key shows that conditions are
     * honoured (an emulator or proxy that ignores {@code ConditionExpression} fails it). With the check switched off on
     * the builder, sends nothing and reports every capability {@link StoreCapabilities.Support#ASSUMED}.
     *
     * @throws BackendException naming the table and the fix: MISSING_CONTAINER (no table, creation off, a table being
     *                          deleted), MISCONFIGURED (wrong key schema, a global table, a table archived or without
     *                          access to its KMS key), TRANSIENT (a table still CREATING after the wait), ACCESS_DENIED,
     *                          UNREACHABLE, CONDITIONAL_WRITES_NOT_SUPPORTED (a conditional create or swap not
     *                          honoured); nothing is remembered then, so the next call checks again
     */
    @Override
    public StoreCapabilities verify() throws BackendException {
        StoreCapabilities known = verified;
        if (known != null) {
            return known;
        }
        synchronized (verifying) {
            if (verified == null) {
                verified = check ? checkNow() : StoreCapabilities.assumed(describe());
            }
            return verified;
        }
    }

    private StoreCapabilities checkNow() throws BackendException {
        new TableCheck(client, table, errors, creation, requestTimeout).run();
        ConditionalWriteProbe.Verdict verdict = new ConditionalWriteProbe(this, requestTimeout).check();
        if (!verdict.createAndSwapVerified() && verdict.failure() != null) {
            throw verdict.failure();
        }
        StoreCapabilities capabilities = verdict.capabilities();
        if (!capabilities.has(Capability.CONDITIONAL_DELETE)) {
            log.warn("hoplock: {} does not honour the condition on DeleteItem ({}). Electors that release by writing"
                    + " an expired record (the default) are safe on it; release by DELETE is refused on it.",
                    describe(), capabilities.detail(Capability.CONDITIONAL_DELETE));
        }
        return capabilities;
    }

    /** The partition key value that holds {@code leaseKey}: the prefix followed by the key. */
    public String itemKey(String leaseKey) {
        return table.itemKey(leaseKey);
    }

    /** The table's name. */
    public String tableName() {
        return table.name();
    }

    /** {@code dynamodb table <name> (keys <prefix>*) in <region>} or {@code at <endpoint>}; never credentials. */
    @Override
    public String describe() {
        return table.describe();
    }

    /** Closes the DynamoDB client if this backend created it; a client passed in by the caller stays open. */
    @Override
    public void close() {
        if (ownsClient) {
            client.close();
        }
    }

    @Override
    public String toString() {
        return "DynamoDbBackend[" + table.describe() + "]";
    }

    // ----------------------------------------------------------------------------------------- internals

    private Optional<StoredObject> read(String itemKey, CallBudget budget) throws BackendException {
        GetItemResponse response;
        try {
            response = client.getItem(get -> get.tableName(table.name()).key(key(itemKey)).consistentRead(true)
                    // The key too: an item that exists without hoplock's attributes must not read as "no item".
                    .projectionExpression("#k, #r, #v").expressionAttributeNames(Map.of("#k", table.keyAttribute(),
                            "#r", LeaseItem.RECORD, "#v", LeaseItem.VERSION))
                    .overrideConfiguration(callTimeout(budget)));
        } catch (SdkException e) {
            throw errors.translate(e, DynamoDbOperation.GET_ITEM, table.item(itemKey), budget.budget());
        }
        if (!response.hasItem() || response.item().isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(LeaseItem.stored(table, itemKey, response.item()));
    }

    /**
     * The item after a refusal whose answer did not carry it. A refused request changed nothing, so what this read
     * finds holds at the instant of the read. If it cannot be read, the outcome of {@code refused} is reported as
     * unknown: an SDK retry may have been refused by the call's own first attempt.
     */
    private Optional<StoredObject> reread(String itemKey, CallBudget budget, DynamoDbOperation refused)
            throws BackendException {
        try {
            return read(itemKey, budget.hasTimeLeft() ? budget : CallBudget.of(SDK_MINIMUM_TIMEOUT));
        } catch (BackendException e) {
            throw new BackendException(BackendException.Kind.TRANSIENT, refused.apiName() + " of the "
                    + table.item(itemKey) + " was refused, and the item could not be read to tell why ("
                    + e.getMessage() + ")" + DynamoDbErrors.outcome(refused), e);
        }
    }

    private Map<String, AttributeValue> key(String itemKey) {
        return Map.of(table.keyAttribute(), AttributeValue.fromS(itemKey));
    }

    private CallBudget budget(Duration timeout) throws BackendException {
        return CallBudget.forCall(timeout, requestTimeout, () -> "a request to " + table.describe());
    }

    /** What is left of {@code budget}, as the SDK's API-call timeout (at least 1 ms, which the SDK requires). */
    static AwsRequestOverrideConfiguration callTimeout(CallBudget budget) {
        return AwsRequestOverrideConfiguration.builder()
                .apiCallTimeout(budget.remainingAtLeast(SDK_MINIMUM_TIMEOUT)).build();
    }
}
