package dev.hoplock.elasticsearch;

import dev.hoplock.test.process.ElectorChildMain;
import dev.hoplock.test.process.ElectorChildMain.OpenStore;

/**
 * One elector in its own JVM, for {@link ElasticsearchElectorProcessesTest}: {@link ElectorChildMain} over an
 * {@link ElasticsearchBackend} (its own JDK HTTP client, closed when the child stops) on the OpenSearch node of the
 * test JVM that started it.
 *
 * <p>Arguments: endpoint, index, then {@link ElectorChildMain}'s: lease key, owner, TTL in ms, poll interval in ms.
 */
public final class SearchElectorMain {

    private SearchElectorMain() {
    }

    public static void main(String[] args) throws Exception {
        ElectorChildMain.run(args, (store, ttl) -> {
            // The elector runs the store's check before it campaigns; the index exists (the test created it).
            ElasticsearchBackend backend = ElasticsearchBackend.builder().endpoint(store.get(0)).index(store.get(1))
                    .createIndex(false).requestTimeout(ttl).verify(false).build();
            return new OpenStore(backend, backend::close);
        });
    }
}
