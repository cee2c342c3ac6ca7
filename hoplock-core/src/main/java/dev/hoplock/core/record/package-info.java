/**
 * The lease record and its JSON codec, byte-compatible with Go hoplock's.
 *
 * <p>Nullness: no method accepts or returns {@code null} unless it is annotated {@code @Nullable}.
 */
@NullMarked
package dev.hoplock.core.record;

import org.jspecify.annotations.NullMarked;
