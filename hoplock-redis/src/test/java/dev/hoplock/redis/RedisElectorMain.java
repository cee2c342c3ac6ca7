package dev.hoplock.redis;

import dev.hoplock.test.process.ElectorChildMain;
import dev.hoplock.test.process.ElectorChildMain.OpenStore;

/**
 * One elector in its own JVM, for {@link RedisElectorProcessesTest}: {@link ElectorChildMain} over a
 * {@link RedisBackend} (its own Lettuce client, closed when the child stops).
 *
 * <p>Arguments: Redis URI, key prefix, then {@link ElectorChildMain}'s: lease key, owner, TTL in ms, poll in ms.
 */
public final class RedisElectorMain {

    private RedisElectorMain() {
    }

    public static void main(String[] args) throws Exception {
        ElectorChildMain.run(args, (store, ttl) -> {
            // The elector verifies the store before it campaigns.
            RedisBackend backend = RedisBackend.builder().uri(store.get(0)).prefix(store.get(1)).requestTimeout(ttl)
                    .verifyOnBuild(false).build();
            return new OpenStore(backend, backend::close);
        });
    }
}
