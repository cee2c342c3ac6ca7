package dev.hoplock.elasticsearch;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.elasticsearch.node.OpenSearchExtension;
import dev.hoplock.elasticsearch.node.OpenSearchNode;
import dev.hoplock.test.LockContractTest;
import dev.hoplock.test.SharedBackend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The named-lock contract for {@link ElasticsearchBackend} against the real OpenSearch 2.19.6 node of this module's
 * tests. All tests share one backend and one index; the contract gives every test its own lock names.
 */
@ExtendWith(OpenSearchExtension.class)
class ElasticsearchLockContractTest extends LockContractTest {

    private static final SharedBackend<ElasticsearchBackend> SHARED = new SharedBackend<>(ElasticsearchBackend::close);

    private final OpenSearchNode node;

    ElasticsearchLockContractTest(OpenSearchNode node) {
        this.node = node;
    }

    @Override
    protected Backend backend() throws Exception {
        return SHARED.get(() -> TestSearch.backend(node, TestSearch.uniqueIndex("locks")));
    }

    @AfterAll
    static void closeBackend() throws Exception {
        SHARED.close();
    }
}
