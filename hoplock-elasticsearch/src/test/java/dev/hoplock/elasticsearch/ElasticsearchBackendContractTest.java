package dev.hoplock.elasticsearch;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.elasticsearch.node.OpenSearchExtension;
import dev.hoplock.elasticsearch.node.OpenSearchNode;
import dev.hoplock.test.BackendContractTest;
import dev.hoplock.test.SharedBackend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;

/**
 * The whole backend contract, races included, for {@link ElasticsearchBackend} over the JDK transport against a
 * real OpenSearch 2.19.6 node. All tests share one backend and one index; the contract gives every test its own keys.
 */
@ExtendWith(OpenSearchExtension.class)
class ElasticsearchBackendContractTest extends BackendContractTest {

    private static final SharedBackend<ElasticsearchBackend> SHARED = new SharedBackend<>(ElasticsearchBackend::close);

    private final OpenSearchNode node;

    ElasticsearchBackendContractTest(OpenSearchNode node) {
        this.node = node;
    }

    @Override
    protected Backend backend() throws Exception {
        return SHARED.get(() -> TestSearch.backend(node, TestSearch.uniqueIndex("contract")));
    }

    @AfterAll
    static void closeBackend() throws Exception {
        SHARED.close();
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
}
