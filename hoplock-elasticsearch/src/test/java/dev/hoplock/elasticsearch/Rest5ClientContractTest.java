package dev.hoplock.elasticsearch;

import co.elastic.clients.transport.rest5_client.low_level.Rest5Client;
import dev.hoplock.core.backend.Backend;
import dev.hoplock.elasticsearch.node.OpenSearchExtension;
import dev.hoplock.elasticsearch.node.OpenSearchNode;
import dev.hoplock.test.BackendContractTest;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.time.Duration;
import java.util.Objects;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole backend contract over {@link Rest5ClientTransport}: Elasticsearch's own low-level REST client (the one
 * Spring Boot 4 auto-configures) against OpenSearch 2.19.6, which it does not refuse. The races run with fewer
 * writers and rounds than over the JDK transport: they test the cluster's conditions, which that suite covers in
 * full, and here only that this client passes them through.
 */
@ExtendWith(OpenSearchExtension.class)
class Rest5ClientContractTest extends BackendContractTest {

    private static @Nullable Rest5Client client;
    private static @Nullable ElasticsearchBackend shared;

    private final OpenSearchNode node;

    Rest5ClientContractTest(OpenSearchNode node) {
        this.node = node;
    }

    @Override
    protected Backend backend() throws Exception {
        synchronized (Rest5ClientContractTest.class) {
            if (shared == null) {
                Rest5Client created = Rest5Client.builder(node.endpoint()).build();
                client = created;
                shared = ElasticsearchBackend.builder().transport(Rest5ClientTransport.over(created))
                        .index(TestSearch.uniqueIndex("rest5")).requestTimeout(TestSearch.TIMEOUT).build();
            }
            return shared;
        }
    }

    @AfterAll
    static void closeClient() throws IOException {
        if (shared != null) {
            shared.close();
            Rest5Client given = Objects.requireNonNull(client, "set together with shared");
            assertThat(given.isRunning()).as("the backend leaves the application's client open").isTrue();
            given.close();
            shared = null;
        }
    }

    @Test
    void theBackendNamesTheClientsHost() {
        assertThat(store().describe()).contains(node.endpoint().getHost() + ":" + node.endpoint().getPort())
                .contains("OpenSearch 2.19.6");
    }

    /** Deletes the shared index and creates it again with hoplock's definition. */
    @Override
    protected void recreateContainer() throws Exception {
        TestSearch.recreateIndex(node, ((ElasticsearchBackend) store()).index());
    }

    @Override
    protected Duration timeout() {
        return TestSearch.TIMEOUT;
    }

    @Override
    protected int raceWriters() {
        return 8;
    }

    @Override
    protected int raceRounds() {
        return 5;
    }
}
