/**
 * Rolling restarts of three Spring Boot applications, one JVM each, and the time with no leader at each handover
 * ({@link dev.hoplock.bench.rolling.RollingRestartBench}).
 *
 * <p>Nullness: every type, parameter and return value here is non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.hoplock.bench.rolling;

import org.jspecify.annotations.NullMarked;
