package dev.hoplock.elasticsearch;

import dev.hoplock.elasticsearch.node.OpenSearchExtension;
import dev.hoplock.elasticsearch.node.OpenSearchNode;
import dev.hoplock.elasticsearch.node.RawHttp;
import dev.hoplock.test.process.ElectorProcessesTest;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.List;

/**
 * {@link ElectorProcessesTest} on the OpenSearch 2.19.6 node of this test JVM: three more JVMs
 * ({@link SearchElectorMain}), each an elector over an {@link ElasticsearchBackend} with its own HTTP client, on one
 * index made for this run and deleted after it.
 */
@ExtendWith(OpenSearchExtension.class)
class ElasticsearchElectorProcessesTest extends ElectorProcessesTest {

    private final OpenSearchNode node;
    private final String index = TestSearch.uniqueIndex("procs");

    ElasticsearchElectorProcessesTest(OpenSearchNode node) {
        this.node = node;
    }

    /**
     * Each elector runs the store's check (about eight requests) within its request timeout, a part of the TTL,
     * before it campaigns: 4 s leaves it time while three JVMs start at once on a loaded machine.
     */
    @Override
    protected Duration ttl() {
        return Duration.ofSeconds(4);
    }

    @Override
    protected void prepareStore() throws Exception {
        TestSearch.backend(node, index).close();
    }

    @Override
    protected void cleanUpStore() throws Exception {
        new RawHttp(node).delete("/" + index);
    }

    @Override
    protected Class<?> electorMain() {
        return SearchElectorMain.class;
    }

    @Override
    protected List<String> storeArguments() {
        return List.of(node.endpoint().toString(), index);
    }

    @Override
    protected String storeName() {
        return "OpenSearch 2.19.6";
    }

    @Override
    protected String runName() {
        return index;
    }
}
