/**
 * The filesystem store in a Spring Boot application, {@code hoplock.backend=filesystem}: its configuration
 * ({@link dev.hoplock.spring.autoconfigure.filesystem.FilesystemBackendConfiguration}) and its settings
 * {@code hoplock.filesystem.*} ({@link dev.hoplock.spring.autoconfigure.filesystem.FilesystemProperties}).
 *
 * <p>Nullness: every type, parameter and return value here is non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.hoplock.spring.autoconfigure.filesystem;

import org.jspecify.annotations.NullMarked;
