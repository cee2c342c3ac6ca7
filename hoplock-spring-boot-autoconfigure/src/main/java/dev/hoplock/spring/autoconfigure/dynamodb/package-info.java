/**
 * The DynamoDB store in a Spring Boot application, {@code hoplock.backend=dynamodb}: its configuration
 * ({@link dev.hoplock.spring.autoconfigure.dynamodb.DynamoDbBackendConfiguration}), its settings
 * {@code hoplock.dynamodb.*} ({@link dev.hoplock.spring.autoconfigure.dynamodb.DynamoDbProperties}), the reuse of the
 * application's {@code DynamoDbClient} and the building of the store. Only this package of the auto-configuration
 * refers to {@code dev.hoplock:hoplock-dynamodb}, and nothing here is loaded without it.
 *
 * <p>Nullness: every type, parameter and return value here is non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.hoplock.spring.autoconfigure.dynamodb;

import org.jspecify.annotations.NullMarked;
