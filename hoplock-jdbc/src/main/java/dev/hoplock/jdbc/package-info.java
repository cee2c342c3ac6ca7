/**
 * The JDBC store: {@link dev.hoplock.jdbc.JdbcBackend}, built with {@link dev.hoplock.jdbc.JdbcBackendBuilder}, its
 * schema, and the fence that stamps writes with the lease's generation ({@link dev.hoplock.jdbc.JdbcFence}).
 *
 * <p>Nullness: every type, parameter and return value here is non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.hoplock.jdbc;

import org.jspecify.annotations.NullMarked;
