/**
 * The cost per call of the {@code @LeaderOnly} gate, measured with JMH against an unannotated and a no-op advised
 * bean ({@link dev.hoplock.bench.gate.GateCostBenchmark}).
 *
 * <p>Nullness: every type, parameter and return value here is non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.hoplock.bench.gate;

import org.jspecify.annotations.NullMarked;
