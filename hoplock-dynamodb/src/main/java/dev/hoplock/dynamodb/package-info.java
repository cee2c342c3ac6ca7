/**
 * The DynamoDB store: {@link dev.hoplock.dynamodb.DynamoDbBackend}, built with
 * {@link dev.hoplock.dynamodb.DynamoDbBackendBuilder}: one item per lease key in one table, the lease record's bytes
 * and a version that is new at every write, conditional {@code PutItem} and {@code DeleteItem} on that version, and
 * strongly consistent reads.
 *
 * <p>Nullness: every type, parameter and return value here is non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.hoplock.dynamodb;

import org.jspecify.annotations.NullMarked;
