/**
 * The per-key ownership benchmarks: the cost of one ownership check, spread and churn of rendezvous ownership,
 * handover times and backend requests of an ownership group.
 *
 * <p>Nullness: every type, parameter and return value here is non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.hoplock.bench.ownership;

import org.jspecify.annotations.NullMarked;
