/**
 * Fencing tokens: checks that a resource refuses writes from a leader whose generation is stale.
 *
 * <p>Nullness: no method accepts or returns {@code null} unless it is annotated {@code @Nullable}.
 */
@NullMarked
package dev.hoplock.core.fencing;

import org.jspecify.annotations.NullMarked;
