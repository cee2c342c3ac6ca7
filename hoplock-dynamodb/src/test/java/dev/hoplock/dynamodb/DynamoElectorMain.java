package dev.hoplock.dynamodb;

import dev.hoplock.dynamodb.emulator.Dynalite;
import dev.hoplock.test.process.ElectorChildMain;
import dev.hoplock.test.process.ElectorChildMain.OpenStore;

/**
 * One elector in its own JVM, for {@link DynamoDbElectorProcessesTest}: {@link ElectorChildMain} over a
 * {@link DynamoDbBackend} on dynalite (which accepts any credentials; the test's own are compiled in, never passed on
 * the command line). The elector runs the start-up check before it campaigns.
 *
 * <p>Arguments: endpoint, table, prefix, then {@link ElectorChildMain}'s: lease key, owner, TTL in ms, poll interval
 * in ms.
 */
public final class DynamoElectorMain {

    private DynamoElectorMain() {
    }

    public static void main(String[] args) throws Exception {
        ElectorChildMain.run(args, (store, ttl) -> {
            DynamoDbBackend backend = DynamoDbBackend.builder()
                    .endpoint(store.get(0)).region("us-east-1")
                    .credentials(Dynalite.ACCESS_KEY_ID, Dynalite.SECRET_KEY)
                    .table(store.get(1)).prefix(store.get(2))
                    .verifyOnBuild(false)
                    .build();
            return new OpenStore(backend, backend);
        });
    }
}
