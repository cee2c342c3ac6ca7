package dev.hoplock.elasticsearch;

import dev.hoplock.core.backend.BackendException;
import dev.hoplock.elasticsearch.node.OpenSearchNode;
import dev.hoplock.elasticsearch.node.RawHttp;

import static org.assertj.core.api.Assertions.assertThat;

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

    /**
     * Deletes {@code index} and creates it again, empty, with hoplock's definition, as an operator (or a start-up
     * check after the delete) would: a new incarnation of the index, whose sequence numbers start again at 0.
     */
    static void recreateIndex(OpenSearchNode node, String index) throws Exception {
        RawHttp http = new RawHttp(node);
        RawHttp.Answer deleted = http.delete("/" + index);
        assertThat(deleted.status()).as("DELETE /%s: %s", index, deleted.body()).isIn(200, 404);
        RawHttp.Answer created = http.put("/" + index, LeaseDocument.INDEX_DEFINITION);
        assertThat(created.status()).as("PUT /%s: %s", index, created.body()).isEqualTo(200);
    }
}
