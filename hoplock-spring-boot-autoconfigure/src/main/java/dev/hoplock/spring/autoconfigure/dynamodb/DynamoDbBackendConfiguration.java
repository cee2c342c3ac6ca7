package dev.hoplock.spring.autoconfigure.dynamodb;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.dynamodb.DynamoDbBackend;
import dev.hoplock.spring.autoconfigure.BackendType;
import dev.hoplock.spring.autoconfigure.ConditionalOnHoplockBackend;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The DynamoDB store, only when {@code dev.hoplock:hoplock-dynamodb} and the AWS SDK's DynamoDB client are on the
 * classpath: nothing here is loaded otherwise.
 *
 * <ul>
 *   <li>{@code hoplockBackend}: a {@link DynamoDbBackend} from {@code hoplock.dynamodb.*} when
 *       {@code hoplock.backend=dynamodb} and the application defines no {@link Backend}. It uses the application's
 *       {@link DynamoDbClient} bean (if there is exactly one, as Spring Cloud AWS defines it) as it is, and never
 *       closes it, unless {@code hoplock.dynamodb} sets a client setting (region, endpoint, credentials,
 *       connect-timeout); then, or without such a bean, it creates its own client, closed with the backend. With
 *       {@code hoplock.dynamodb.check-on-start} (default true) the store's start-up check (table, key schema, no
 *       global table, conditional writes; with {@code create-table}, the creation of a missing table) runs before the
 *       bean is returned, and a failure stops the start with the cause and the fix ({@link DynamoDbBackends}).</li>
 * </ul>
 * The settings are {@link DynamoDbProperties}, bound only when the store module is present. Imported by
 * {@code HoplockAutoConfiguration}, not an auto-configuration itself.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(name = {"dev.hoplock.dynamodb.DynamoDbBackend",
        "software.amazon.awssdk.services.dynamodb.DynamoDbClient"})
@EnableConfigurationProperties(DynamoDbProperties.class)
public class DynamoDbBackendConfiguration {

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnMissingBean(Backend.class)
    @ConditionalOnHoplockBackend(BackendType.DYNAMODB)
    static class Store {

        @Bean
        DynamoDbBackend hoplockBackend(DynamoDbProperties settings, ObjectProvider<DynamoDbClient> clients) {
            return DynamoDbBackends.create(settings, clients.getIfUnique());
        }
    }
}
