package dev.hoplock.elasticsearch;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.elasticsearch.node.OpenSearchExtension;
import dev.hoplock.elasticsearch.node.OpenSearchNode;
import dev.hoplock.test.ElectorFuzzTest;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;

/**
 * The elector fuzz run (real electors, injected stalls, closes and step-downs; no two leaders at once, rising fencing
 * tokens) over {@link ElasticsearchBackend} against the module's real OpenSearch 2.19.6 node, on an index of its own.
 */
@ExtendWith(OpenSearchExtension.class)
class ElasticsearchElectorFuzzTest extends ElectorFuzzTest {

    private final OpenSearchNode node;
    private @Nullable ElasticsearchBackend backend;

    ElasticsearchElectorFuzzTest(OpenSearchNode node) {
        this.node = node;
    }

    @Override
    protected Backend backend() throws Exception {
        backend = TestSearch.backend(node, TestSearch.uniqueIndex("fuzz"));
        return backend;
    }

    @Override
    protected Duration ttl() {
        return Duration.ofMillis(1500);
    }

    @AfterAll
    void closeBackend() {
        if (backend != null) {
            backend.close();
        }
    }
}
