/**
 * The store SPI ({@link dev.hoplock.core.backend.Backend}, {@link dev.hoplock.core.backend.AsyncBackend}) and the
 * in-memory and filesystem backends.
 *
 * <p>Nullness: no method accepts or returns {@code null} unless it is annotated {@code @Nullable}.
 */
@NullMarked
package dev.hoplock.core.backend;

import org.jspecify.annotations.NullMarked;
