package dev.hoplock.spring.autoconfigure.redis;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.redis.RedisBackend;
import dev.hoplock.spring.autoconfigure.BackendType;
import dev.hoplock.spring.autoconfigure.ConditionalOnHoplockBackend;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The Redis store, only when {@code dev.hoplock:hoplock-redis} (and so Lettuce) is on the classpath: nothing here is
 * loaded otherwise.
 *
 * <ul>
 *   <li>{@code hoplockBackend}: a {@link RedisBackend} from {@code hoplock.redis.*} when {@code hoplock.backend=redis}
 *       and the application defines no {@link Backend}. Without a server in {@code hoplock.redis} (url, host,
 *       cluster-nodes, credentials), it connects where the application's unique Lettuce connection factory (Spring
 *       Data Redis, {@code spring.data.redis.*}) points, with its credentials and TLS, sharing its Lettuce client
 *       resources; it always opens a connection of its own (see {@link ApplicationRedisConnection}), closed with the
 *       backend. With {@code hoplock.redis.check-on-start} (default true) the store's start-up check runs before the
 *       bean is returned, and a failure stops the start with the cause and the fix ({@link RedisBackends}).</li>
 * </ul>
 * The settings are {@link RedisProperties}, bound only when the store module is present. Imported by
 * {@code HoplockAutoConfiguration}, not an auto-configuration itself.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(name = {"dev.hoplock.redis.RedisBackend", "io.lettuce.core.RedisClient"})
@EnableConfigurationProperties(RedisProperties.class)
public class RedisBackendConfiguration {

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnMissingBean(Backend.class)
    @ConditionalOnHoplockBackend(BackendType.REDIS)
    static class Store {

        @Bean
        RedisBackend hoplockBackend(RedisProperties settings, ListableBeanFactory beans) {
            return RedisBackends.create(settings, ApplicationRedisConnection.find(beans));
        }
    }
}
