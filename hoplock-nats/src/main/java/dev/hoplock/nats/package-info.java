/**
 * The NATS JetStream store: {@link dev.hoplock.nats.NatsBackend}, a lease per key of one JetStream key-value bucket
 * with compare-and-swap by revision, built with {@link dev.hoplock.nats.NatsBackendBuilder}.
 *
 * <p>Nullness: every type, parameter and return value here is non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.hoplock.nats;

import org.jspecify.annotations.NullMarked;
