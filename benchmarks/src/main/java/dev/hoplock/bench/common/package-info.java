/**
 * What every benchmark shares: the result files of a run ({@link dev.hoplock.bench.common.Results}) and order
 * statistics of a sample ({@link dev.hoplock.bench.common.Stats}).
 *
 * <p>Nullness: every type, parameter and return value here is non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.hoplock.bench.common;

import org.jspecify.annotations.NullMarked;
