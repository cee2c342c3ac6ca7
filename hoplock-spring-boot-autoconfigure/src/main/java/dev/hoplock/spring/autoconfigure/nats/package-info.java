/**
 * The NATS JetStream key-value store in a Spring Boot application, {@code hoplock.backend=nats}: its configuration
 * ({@link dev.hoplock.spring.autoconfigure.nats.NatsBackendConfiguration}), its settings {@code hoplock.nats.*}
 * ({@link dev.hoplock.spring.autoconfigure.nats.NatsProperties}), the reuse of the application's
 * {@code io.nats.client.Connection} and the building of the store. Only this package of the auto-configuration refers
 * to {@code dev.hoplock:hoplock-nats}, and nothing here is loaded without it.
 *
 * <p>Nullness: every type, parameter and return value here is non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.hoplock.spring.autoconfigure.nats;

import org.jspecify.annotations.NullMarked;
