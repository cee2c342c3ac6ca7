package dev.hoplock.elasticsearch;

import dev.hoplock.core.backend.BackendException;
import dev.hoplock.elasticsearch.node.OpenSearchNode;

import java.time.Duration;
import java.util.UUID;

/** Backends over the shared test node, each on an index of its own. */
final class TestSearch {

    static final Duration TIMEOUT = Duration.ofSeconds(10);

    private TestSearch() {
    }

    /** A fresh index name, so that test classes never see each other's documents. */
    static String uniqueIndex(String purpose) {
        return "hoplock-test-" + purpose + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** A verified backend over the JDK transport on a new index. */
    static ElasticsearchBackend backend(OpenSearchNode node, String index) throws BackendException {
        return ElasticsearchBackend.builder().endpoint(node.endpoint()).index(index).requestTimeout(TIMEOUT).build();
    }
}
