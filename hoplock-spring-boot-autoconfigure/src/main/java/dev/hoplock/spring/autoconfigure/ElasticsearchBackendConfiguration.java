package dev.hoplock.spring.autoconfigure;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.elasticsearch.ElasticsearchBackend;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
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
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(name = "dev.hoplock.elasticsearch.ElasticsearchBackend")
class ElasticsearchBackendConfiguration {

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnMissingBean(Backend.class)
    @ConditionalOnHoplockBackend(BackendType.ELASTICSEARCH)
    static class Store {

        @Bean
        ElasticsearchBackend hoplockBackend(HoplockProperties properties, ListableBeanFactory beans) {
            return ElasticsearchBackends.create(properties.getElasticsearch(), ApplicationSearchClient.find(beans));
        }
    }
}
