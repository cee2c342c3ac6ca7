package dev.hoplock.spring.autoconfigure.elasticsearch;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.elasticsearch.ElasticsearchBackend;
import dev.hoplock.spring.autoconfigure.BackendType;
import dev.hoplock.spring.autoconfigure.ConditionalOnHoplockBackend;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The Elasticsearch / OpenSearch store, only when {@code dev.hoplock:hoplock-elasticsearch} is on the classpath:
 * nothing here is loaded otherwise.
 *
 * <ul>
 *   <li>{@code hoplockBackend}: an {@link ElasticsearchBackend} from {@code hoplock.elasticsearch.*} when
 *       {@code hoplock.backend=elasticsearch} and the application defines no {@link Backend}. It reuses the
 *       application's Elasticsearch low-level client (the {@code Rest5Client} bean Spring Boot 4 configures from
 *       {@code spring.elasticsearch.*}, if there is exactly one) unless {@code hoplock.elasticsearch} sets an
 *       endpoint or credentials; then, or without such a bean, it creates its own JDK HTTP client. The backend never
 *       closes a client it did not create. With {@code hoplock.elasticsearch.check-on-start} (default true) the
 *       store's start-up check runs before the bean is returned, and a failure stops the start with the cause and
 *       the fix ({@link ElasticsearchBackends}).</li>
 * </ul>
 * The settings are {@link ElasticsearchProperties}, bound only when the store module is present. Imported by
 * {@code HoplockAutoConfiguration}, not an auto-configuration itself.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(name = "dev.hoplock.elasticsearch.ElasticsearchBackend")
@EnableConfigurationProperties(ElasticsearchProperties.class)
public class ElasticsearchBackendConfiguration {

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnMissingBean(Backend.class)
    @ConditionalOnHoplockBackend(BackendType.ELASTICSEARCH)
    static class Store {

        @Bean
        ElasticsearchBackend hoplockBackend(ElasticsearchProperties settings, ListableBeanFactory beans) {
            return ElasticsearchBackends.create(settings, ApplicationSearchClient.find(beans));
        }
    }
}
