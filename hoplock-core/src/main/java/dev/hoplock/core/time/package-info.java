/**
 * Clocks and timers: the system's, and {@link dev.hoplock.core.time.VirtualTime} for deterministic tests.
 *
 * <p>Nullness: no method accepts or returns {@code null} unless it is annotated {@code @Nullable}.
 */
@NullMarked
package dev.hoplock.core.time;

import org.jspecify.annotations.NullMarked;
