package dev.hoplock.spring.autoconfigure.nats;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.nats.NatsBackend;
import dev.hoplock.spring.autoconfigure.BackendType;
import dev.hoplock.spring.autoconfigure.ConditionalOnHoplockBackend;
import io.nats.client.Connection;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The NATS JetStream store, only when {@code dev.hoplock:hoplock-nats} (and so the NATS client) is on the classpath:
 * nothing here is loaded otherwise.
 *
 * <ul>
 *   <li>{@code hoplockBackend}: a {@link NatsBackend} from {@code hoplock.nats.*} when {@code hoplock.backend=nats}
 *       and the application defines no {@link Backend}. It uses the application's {@link Connection} bean (if there is
 *       exactly one) as it is, and never closes it, unless {@code hoplock.nats} sets a connection setting (url,
 *       credentials, connect-timeout); then, or without such a bean, it opens its own connection, closed with the
 *       backend. With {@code hoplock.nats.check-on-start} (default true) the store's start-up check runs before the
 *       bean is returned, and a failure stops the start with the cause and the fix ({@link NatsBackends}).</li>
 * </ul>
 * The settings are {@link NatsProperties}, bound only when the store module is present. Imported by
 * {@code HoplockAutoConfiguration}, not an auto-configuration itself.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(name = {"dev.hoplock.nats.NatsBackend", "io.nats.client.Connection"})
@EnableConfigurationProperties(NatsProperties.class)
public class NatsBackendConfiguration {

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnMissingBean(Backend.class)
    @ConditionalOnHoplockBackend(BackendType.NATS)
    static class Store {

        @Bean
        NatsBackend hoplockBackend(NatsProperties settings, ObjectProvider<Connection> connections) {
            return NatsBackends.create(settings, connections.getIfUnique());
        }
    }
}
