package dev.hoplock.dynamodb;

import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.BackendException.Kind;
import dev.hoplock.core.backend.CallBudget;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ReplicaDescription;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;

/**
 * The table half of the start-up check ({@link DynamoDbBackend#verify()}): the table exists (or is created, with
 * {@link TableCreation#CREATE_IF_MISSING}, and waited for until it is ACTIVE; an existing table that is CREATING is
 * waited for too), serves requests (ACTIVE or UPDATING; DELETING, ARCHIVING, ARCHIVED and
 * INACCESSIBLE_ENCRYPTION_CREDENTIALS are refused), its key is exactly the partition key hoplock writes (a string, no
 * sort key), and it is no global table.
 *
 * <p>Why global tables are refused: a global table's replicas in other regions are written asynchronously, and a
 * condition is checked only against the replica of the region the request goes to. Two electors in two regions could
 * each pass their condition and both lead, and a strongly consistent read is strongly consistent only within its own
 * region. The check refuses every table whose {@code DescribeTable} lists replicas (global tables version
 * 2019.11.21, multi-region strong consistency included, which is untested here); a legacy (2017.11.29) global table
 * is not visible in {@code DescribeTable}, and the documentation warns against it.
 *
 * <p>Guarantees: every refusal is a {@link BackendException} naming the table, what was found and the fix; each
 * request is bounded by the step timeout, the wait for a new table by {@link #TABLE_CREATION_TIMEOUT}.
 */
final class TableCheck {

    /** The longest the check waits for a table to become ACTIVE (AWS: seconds; a busy account: longer). */
    static final Duration TABLE_CREATION_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration POLL = Duration.ofMillis(200);

    private static final Logger log = LoggerFactory.getLogger(TableCheck.class);

    private final DynamoDbClient client;
    private final LeaseTable table;
    private final DynamoDbErrors errors;
    private final TableCreation creation;
    private final Duration stepTimeout;

    TableCheck(DynamoDbClient client, LeaseTable table, DynamoDbErrors errors, TableCreation creation,
            Duration stepTimeout) {
        this.client = client;
        this.table = table;
        this.errors = errors;
        this.creation = creation;
        this.stepTimeout = stepTimeout;
    }

    void run() throws BackendException {
        TableDescription description = describe().orElse(null);
        if (description == null) {
            if (creation != TableCreation.CREATE_IF_MISSING) {
                throw new BackendException(Kind.MISSING_CONTAINER, "the DynamoDB table '" + table.name() + "' does"
                        + " not exist at " + table.endpointDescription() + ", and creating it is switched off: create"
                        + " it (aws dynamodb create-table --table-name " + table.name() + " --attribute-definitions"
                        + " AttributeName=" + table.keyAttribute() + ",AttributeType=S --key-schema AttributeName="
                        + table.keyAttribute() + ",KeyType=HASH --billing-mode PAY_PER_REQUEST), let hoplock create"
                        + " it (tableCreation(CREATE_IF_MISSING)), or fix the table name or region");
            }
            create();
            description = awaitActive();
        } else if (description.tableStatus() == TableStatus.CREATING) {
            description = awaitActive();
        }
        checkStatus(description);
        checkKeySchema(description);
        checkNotGlobal(description);
    }

    /**
     * The table's status: ACTIVE and UPDATING (DynamoDB serves reads and writes while a table is updated: capacity,
     * indexes, streams) pass; CREATING was waited for before; a table being deleted, archived, or whose KMS key is
     * inaccessible serves no requests, and is refused naming the fix. A status this SDK does not know passes: the
     * conditional-write probe that follows shows whether the table serves requests.
     */
    private void checkStatus(TableDescription description) throws BackendException {
        TableStatus status = description.tableStatus();
        String at = "the DynamoDB table '" + table.name() + "' at " + table.endpointDescription();
        if (status == TableStatus.DELETING) {
            throw new BackendException(Kind.MISSING_CONTAINER, at + " is being deleted (status DELETING); re-create"
                    + " it once it is gone, or use another table");
        }
        if (status == TableStatus.INACCESSIBLE_ENCRYPTION_CREDENTIALS) {
            throw new BackendException(Kind.MISCONFIGURED, at + " cannot be read or written: its AWS KMS key is"
                    + " inaccessible (status INACCESSIBLE_ENCRYPTION_CREDENTIALS: the key is disabled, scheduled for"
                    + " deletion, or its grant was revoked); enable the key or restore DynamoDB's access to it (after"
                    + " seven days DynamoDB archives the table)");
        }
        if (status == TableStatus.ARCHIVING || status == TableStatus.ARCHIVED) {
            throw new BackendException(Kind.MISCONFIGURED, at + " is archived (status " + status + ": its AWS KMS"
                    + " key was inaccessible for seven days) and serves no requests; restore it from its archival"
                    + " backup once the key is accessible again, or use another table");
        }
        if (status != TableStatus.ACTIVE) {
            log.debug("hoplock: the DynamoDB table {} is {}; DynamoDB serves reads and writes in that state",
                    table.name(), description.tableStatusAsString());
        }
    }

    private Optional<TableDescription> describe() throws BackendException {
        CallBudget budget = CallBudget.of(stepTimeout);
        try {
            return Optional.of(client.describeTable(describe -> describe.tableName(table.name())
                    .overrideConfiguration(DynamoDbBackend.callTimeout(budget))).table());
        } catch (ResourceNotFoundException e) {
            return Optional.empty();
        } catch (SdkException e) {
            throw errors.translate(e, DynamoDbOperation.DESCRIBE_TABLE, "table " + table.name(), budget.budget());
        }
    }

    private void create() throws BackendException {
        CallBudget budget = CallBudget.of(stepTimeout);
        try {
            client.createTable(create -> create.tableName(table.name())
                    .attributeDefinitions(AttributeDefinition.builder().attributeName(table.keyAttribute())
                            .attributeType(ScalarAttributeType.S).build())
                    .keySchema(KeySchemaElement.builder().attributeName(table.keyAttribute()).keyType(KeyType.HASH)
                            .build())
                    .billingMode(BillingMode.PAY_PER_REQUEST)
                    .overrideConfiguration(DynamoDbBackend.callTimeout(budget)));
            log.info("hoplock: created the DynamoDB table {} (partition key {} of type S, on demand) at {}",
                    table.name(), table.keyAttribute(), table.endpointDescription());
        } catch (ResourceInUseException e) {
            log.debug("hoplock: the DynamoDB table {} is being created by another process", table.name());
        } catch (SdkException e) {
            BackendException failure = errors.translate(e, DynamoDbOperation.CREATE_TABLE, "table " + table.name(),
                    budget.budget());
            throw failure.kind() == Kind.ACCESS_DENIED ? new BackendException(Kind.ACCESS_DENIED,
                    failure.getMessage() + "; or create the table beforehand and keep tableCreation(NEVER)")
                    : failure;
        }
    }

    /** Waits (polling DescribeTable) until the table is ACTIVE, for at most {@link #TABLE_CREATION_TIMEOUT}. */
    private TableDescription awaitActive() throws BackendException {
        long deadline = System.nanoTime() + TABLE_CREATION_TIMEOUT.toNanos();
        while (true) {
            Optional<TableDescription> now = describe();
            if (now.isPresent() && now.get().tableStatus() != TableStatus.CREATING) {
                return now.get();
            }
            if (System.nanoTime() - deadline > 0) {
                throw new BackendException(Kind.TRANSIENT, "the DynamoDB table '" + table.name() + "' at "
                        + table.endpointDescription() + " is not ACTIVE " + TABLE_CREATION_TIMEOUT.toSeconds()
                        + " s after it was created; start again once it is");
            }
            LockSupport.parkNanos(POLL.toNanos());
            if (Thread.currentThread().isInterrupted()) {
                throw new BackendException(Kind.TRANSIENT, "interrupted while waiting for the DynamoDB table '"
                        + table.name() + "' to become ACTIVE");
            }
        }
    }

    /**
     * The key must be exactly one partition key named {@code keyAttribute}, of type S. A mismatch is refused naming
     * which part is wrong (the partition key's name, its type, a sort key) and the fix for that part.
     */
    private void checkKeySchema(TableDescription description) throws BackendException {
        List<KeySchemaElement> keys = description.hasKeySchema() ? description.keySchema() : List.of();
        String partition = keys.stream().filter(k -> k.keyType() == KeyType.HASH).map(KeySchemaElement::attributeName)
                .findFirst().orElse("");
        String partitionType = partition.isEmpty() ? "" : typeOf(description, partition);
        List<String> sortKeys = keys.stream().filter(k -> k.keyType() != KeyType.HASH)
                .map(KeySchemaElement::attributeName).toList();
        String wrong;
        String fix;
        if (partition.isEmpty()) {
            wrong = "DescribeTable reports no partition key";
            fix = "check that the endpoint is DynamoDB, and give hoplock a table with a partition key '"
                    + table.keyAttribute() + "' of type S";
        } else if (!sortKeys.isEmpty()) {
            wrong = "it has a sort key ('" + String.join("', '", sortKeys) + "'), and hoplock writes items by their"
                    + " partition key alone";
            fix = "give hoplock a table of its own whose only key is a partition key '" + table.keyAttribute()
                    + "' of type S";
        } else if (!"S".equals(partitionType)) {
            wrong = "its partition key '" + partition + "' is of type " + partitionType + ", not S (a string): hoplock's"
                    + " item keys are strings";
            fix = "give hoplock a table of its own with a partition key '" + table.keyAttribute() + "' of type S";
        } else if (!partition.equals(table.keyAttribute())) {
            wrong = "its partition key is named '" + partition + "', not '" + table.keyAttribute() + "'";
            fix = "set keyAttribute(\"" + partition + "\") to use the table's partition key, or give hoplock a table"
                    + " of its own with a partition key '" + table.keyAttribute() + "' of type S";
        } else {
            return;
        }
        String found = keys.stream().map(k -> k.attributeName() + " (" + k.keyTypeAsString() + ", "
                + typeOf(description, k.attributeName()) + ")").collect(Collectors.joining(", "));
        throw new BackendException(Kind.MISCONFIGURED, "the DynamoDB table '" + table.name() + "' at "
                + table.endpointDescription() + " has the key [" + found + "], but hoplock needs exactly a"
                + " partition key '" + table.keyAttribute() + "' of type S and no sort key: " + wrong + "; " + fix);
    }

    private static String typeOf(TableDescription description, String attribute) {
        return description.attributeDefinitions().stream().filter(d -> d.attributeName().equals(attribute))
                .map(d -> d.attributeTypeAsString()).findFirst().orElse("?");
    }

    private void checkNotGlobal(TableDescription description) throws BackendException {
        if (description.hasReplicas() && !description.replicas().isEmpty()) {
            String regions = description.replicas().stream().map(ReplicaDescription::regionName)
                    .collect(Collectors.joining(", "));
            throw new BackendException(Kind.MISCONFIGURED, "the DynamoDB table '" + table.name() + "' at "
                    + table.endpointDescription() + " is a global table (replicas in " + regions + "): replicas are"
                    + " written asynchronously and a condition is checked only in the region that receives the"
                    + " request, so electors in two regions could both lead. Give hoplock a table in one region"
                    + " (a regional table, no replicas), shared by every instance");
        }
    }
}
