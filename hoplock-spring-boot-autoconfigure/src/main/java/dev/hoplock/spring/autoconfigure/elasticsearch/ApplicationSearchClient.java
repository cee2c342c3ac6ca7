package dev.hoplock.spring.autoconfigure.elasticsearch;

import co.elastic.clients.transport.rest5_client.low_level.Rest5Client;
import dev.hoplock.elasticsearch.HttpTransport;
import dev.hoplock.elasticsearch.Rest5ClientTransport;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.util.ClassUtils;

/**
 * The application's Elasticsearch low-level REST client, as an {@link HttpTransport} for the store: the unique
 * {@link Rest5Client} bean (what Spring Boot 4 auto-configures from {@code spring.elasticsearch.*}), or none. The
 * client's class is optional: this class touches it only after checking that it is on the classpath, so an
 * application without {@code elasticsearch-rest5-client} (for example one on Spring Boot 3, whose older
 * {@code RestClient} hoplock does not wrap) gets none and configures {@code hoplock.elasticsearch.endpoint}.
 */
final class ApplicationSearchClient {

    static final String REST5_CLIENT = "co.elastic.clients.transport.rest5_client.low_level.Rest5Client";

    private ApplicationSearchClient() {
    }

    /** A transport over the application's unique {@code Rest5Client} bean, or null. */
    static @Nullable HttpTransport find(ListableBeanFactory beans) {
        if (!ClassUtils.isPresent(REST5_CLIENT, ApplicationSearchClient.class.getClassLoader())) {
            return null;
        }
        return Rest5.find(beans);
    }

    /** Loaded only when the client's class is present. */
    private static final class Rest5 {

        static @Nullable HttpTransport find(ListableBeanFactory beans) {
            Rest5Client client = beans.getBeanProvider(Rest5Client.class).getIfUnique();
            return client == null ? null : Rest5ClientTransport.over(client);
        }
    }
}
