package dev.hoplock.nats;

import dev.hoplock.test.process.ElectorChildMain;
import dev.hoplock.test.process.ElectorChildMain.OpenStore;

/**
 * One elector in its own JVM, for {@link NatsElectorProcessesTest}: {@link ElectorChildMain} over a
 * {@link NatsBackend} with a connection of its own (closed when the child stops).
 *
 * <p>Arguments: server URL, bucket, then {@link ElectorChildMain}'s: lease key, owner, TTL in ms, poll interval in ms.
 */
public final class NatsElectorMain {

    private NatsElectorMain() {
    }

    public static void main(String[] args) throws Exception {
        ElectorChildMain.run(args, (store, ttl) -> {
            NatsBackend backend = NatsBackend.builder().servers(store.get(0)).bucket(store.get(1))
                    .requestTimeout(ttl).build();
            return new OpenStore(backend, backend);
        });
    }
}
