/**
 * Writes {@code docs/BENCHMARKS.md} and its plots from the result files of the last run
 * ({@link dev.hoplock.bench.report.Report}), one section per benchmark.
 *
 * <p>Nullness: every type, parameter and return value here is non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.hoplock.bench.report;

import org.jspecify.annotations.NullMarked;
