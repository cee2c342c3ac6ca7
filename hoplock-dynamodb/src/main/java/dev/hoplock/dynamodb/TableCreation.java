package dev.hoplock.dynamodb;

/**
 * Whether hoplock creates its table at start-up when it is missing. Either way the start-up check
 * ({@link DynamoDbBackend#verify()}) then checks the table's key schema.
 */
public enum TableCreation {
    /**
     * Never: the table must exist (created with the command in the documentation, or by infrastructure code). The
     * default, and the production style: the credentials need no {@code dynamodb:CreateTable}.
     */
    NEVER,
    /**
     * Create it when it is missing, on demand capacity ({@code PAY_PER_REQUEST}), with the partition key as the only
     * key; an existing table is never changed. Needs {@code dynamodb:CreateTable}.
     */
    CREATE_IF_MISSING
}
