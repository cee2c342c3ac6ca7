package dev.hoplock.elasticsearch;

import dev.hoplock.core.backend.BackendException;
import dev.hoplock.test.process.ElectorChildMain.OpenStore;
import dev.hoplock.test.process.OwnershipMemberMain;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * One member of an ownership group in its own JVM, for {@code chaos/ownership-stress.sh store=opensearch}:
 * {@link OwnershipMemberMain} over an {@link ElasticsearchBackend} (its own JDK HTTP client, closed when the member
 * stops) on an OpenSearch node of another process ({@link dev.hoplock.elasticsearch.node.OpenSearchNodeMain}). The
 * backend runs the store's start-up check, which creates the index on first use (members start together, and one
 * that finds the index made by another goes on); a check that fails because the node answers late (the script
 * pauses it) is tried again for up to a minute, as an application's start would be.
 *
 * <p>Arguments: endpoint, index, then {@link OwnershipMemberMain}'s: member id, owner, TTL ms, sink directory,
 * number of keys.
 */
public final class SearchOwnershipMemberMain {

    private static final long START_PATIENCE_NANOS = TimeUnit.MINUTES.toNanos(1);

    private SearchOwnershipMemberMain() {
    }

    public static void main(String[] args) throws Exception {
        OwnershipMemberMain.run(args, (store, ttl) -> {
            ElasticsearchBackend backend = checked(store.get(0), store.get(1), ttl);
            return new OpenStore(backend, backend::close);
        });
    }

    private static ElasticsearchBackend checked(String endpoint, String index, Duration ttl) throws Exception {
        long deadline = System.nanoTime() + START_PATIENCE_NANOS;
        while (true) {
            try {
                return ElasticsearchBackend.builder().endpoint(endpoint).index(index).createIndex(true)
                        .requestTimeout(ttl).verify(true).build();
            } catch (BackendException e) {
                if (System.nanoTime() - deadline > 0) {
                    throw e;
                }
                System.err.println("the start-up check of " + index + " failed, trying again: " + e.getMessage());
                TimeUnit.MILLISECONDS.sleep(500);
            }
        }
    }
}
