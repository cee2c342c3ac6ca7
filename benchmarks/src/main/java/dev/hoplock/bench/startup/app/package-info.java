/**
 * The minimal Spring Boot application that the start-up benchmark starts in fresh JVMs, with and without the
 * starter ({@link dev.hoplock.bench.startup.app.MinimalApp}).
 *
 * <p>Nullness: every type, parameter and return value here is non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.hoplock.bench.startup.app;

import org.jspecify.annotations.NullMarked;
