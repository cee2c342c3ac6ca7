package dev.hoplock.elasticsearch;

import dev.hoplock.core.backend.BackendException;
import dev.hoplock.elasticsearch.node.OpenSearchNode;

/**
 * The store of one contract-test class: one verified backend on one fresh index ({@link TestSearch}), made by the
 * first {@link #backend(OpenSearchNode)} call, returned again to every later call (from any thread), and closed by
 * {@link #close()}, after which the next call makes a new one.
 */
final class ClassIndex {

    private final String purpose;
    private ElasticsearchBackend backend;

    /** {@code purpose} goes into the index name. */
    ClassIndex(String purpose) {
        this.purpose = purpose;
    }

    synchronized ElasticsearchBackend backend(OpenSearchNode node) throws BackendException {
        if (backend == null) {
            backend = TestSearch.backend(node, TestSearch.uniqueIndex(purpose));
        }
        return backend;
    }

    synchronized void close() {
        if (backend != null) {
            backend.close();
            backend = null;
        }
    }
}
