/**
 * The S3 store: {@link dev.hoplock.s3.S3Backend}, built with {@link dev.hoplock.s3.S3BackendBuilder}, and the probe
 * of a store's conditional writes ({@link dev.hoplock.s3.ConditionalWriteProbe}).
 *
 * <p>Nullness: every type, parameter and return value here is non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.hoplock.s3;

import org.jspecify.annotations.NullMarked;
