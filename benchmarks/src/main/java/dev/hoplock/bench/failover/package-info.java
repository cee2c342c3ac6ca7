/**
 * The failover benchmark: crash failover and graceful handover times with every elector in its own JVM
 * ({@link dev.hoplock.bench.failover.FailoverBench}).
 *
 * <p>Nullness: every type, parameter and return value here is non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.hoplock.bench.failover;

import org.jspecify.annotations.NullMarked;
