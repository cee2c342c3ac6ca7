/**
 * Micrometer meters of every election: leadership, generation, time left, acquisitions, losses, skipped calls and
 * store request timers.
 *
 * <p>Nullness: every type, parameter and return value here is non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.hoplock.spring.metrics;

import org.jspecify.annotations.NullMarked;
