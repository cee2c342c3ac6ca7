/**
 * The backend requests benchmark: requests per gated execution and per hour for hoplock's stores and ShedLock
 * ({@link dev.hoplock.bench.requests.RequestsBench}), counted at the data source and the S3 client.
 *
 * <p>Nullness: every type, parameter and return value here is non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.hoplock.bench.requests;

import org.jspecify.annotations.NullMarked;
