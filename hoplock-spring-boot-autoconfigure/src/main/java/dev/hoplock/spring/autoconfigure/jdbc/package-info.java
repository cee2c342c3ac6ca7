/**
 * The JDBC store and the JDBC fence in a Spring Boot application: the store's configuration,
 * {@code hoplock.backend=jdbc} ({@link dev.hoplock.spring.autoconfigure.jdbc.JdbcBackendConfiguration}, settings
 * {@code hoplock.jdbc.*}, {@link dev.hoplock.spring.autoconfigure.jdbc.JdbcProperties}), the fence of {@code @Fenced}
 * methods in the application's database ({@link dev.hoplock.spring.autoconfigure.jdbc.JdbcFenceConfiguration}, settings
 * {@code hoplock.fence.*}, {@link dev.hoplock.spring.autoconfigure.jdbc.JdbcFenceProperties}), and the choice of the
 * {@code DataSource} both use. Only this package of the auto-configuration refers to {@code dev.hoplock:hoplock-jdbc},
 * and nothing here is loaded without it.
 *
 * <p>Nullness: every type, parameter and return value here is non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.hoplock.spring.autoconfigure.jdbc;

import org.jspecify.annotations.NullMarked;
