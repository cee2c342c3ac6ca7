/**
 * The start-up time that {@code hoplock-spring-boot-starter} adds to a minimal Spring Boot application
 * ({@link dev.hoplock.bench.startup.StartupBench}).
 *
 * <p>Nullness: every type, parameter and return value here is non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.hoplock.bench.startup;

import org.jspecify.annotations.NullMarked;
