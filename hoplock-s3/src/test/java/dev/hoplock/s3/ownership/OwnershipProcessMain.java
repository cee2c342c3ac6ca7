package dev.hoplock.s3.ownership;

import dev.hoplock.s3.S3Backend;
import dev.hoplock.test.process.ElectorChildMain.OpenStore;
import dev.hoplock.test.process.OwnershipMemberMain;

import java.net.URI;
import java.time.Duration;

/**
 * One member of an ownership group in its own JVM, for {@link OwnershipProcessesTest} and
 * {@code chaos/ownership-stress.sh store=s3}: {@link OwnershipMemberMain} over an {@link S3Backend} on the test S3
 * server (5 s request timeout; the liveness elector runs the conditional-write probe before it campaigns, and
 * retries it, so the backend does not run it at build).
 *
 * <p>Arguments: endpoint, bucket, prefix, then {@link OwnershipMemberMain}'s: member id, owner, TTL ms, sink
 * directory, number of keys. Credentials from the environment ({@code HOPLOCK_TEST_S3_ACCESS_KEY},
 * {@code HOPLOCK_TEST_S3_SECRET_KEY}), default "test", never from the command line.
 */
public final class OwnershipProcessMain {

    private OwnershipProcessMain() {
    }

    private static String env(String name) {
        String value = System.getenv(name);
        return value == null || value.isEmpty() ? "test" : value;
    }

    public static void main(String[] args) throws Exception {
        OwnershipMemberMain.run(args, (store, ttl) -> {
            S3Backend backend = S3Backend.builder()
                    .endpoint(URI.create(store.get(0))).pathStyle(true).region("us-east-1")
                    .credentials(env("HOPLOCK_TEST_S3_ACCESS_KEY"), env("HOPLOCK_TEST_S3_SECRET_KEY"))
                    .bucket(store.get(1)).prefix(store.get(2)).requestTimeout(Duration.ofSeconds(5))
                    .verifyOnBuild(false).build();
            return new OpenStore(backend, backend::close);
        });
    }
}
