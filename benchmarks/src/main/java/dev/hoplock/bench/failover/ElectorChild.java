package dev.hoplock.bench.failover;

import dev.hoplock.core.election.ElectionEvent;
import dev.hoplock.core.election.Elector;
import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.StoreCapabilities;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.elasticsearch.ElasticsearchBackend;
import dev.hoplock.s3.S3Backend;

import java.io.PrintStream;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;

/**
 * One elector in its own JVM, for {@link FailoverBench}: an {@link S3Backend} and an {@link Elector} with the default
 * ratios (renew TTL/3, poll TTL/15) over the test S3 server. Prints one line per event on stdout:
 * {@code ev=ACQUIRED owner=a gen=3 nano=<System.nanoTime()> wall=<epoch ms>}. {@code nano} is taken when the line is
 * written; on Linux {@code System.nanoTime()} reads CLOCK_MONOTONIC, one clock for every process of the machine, so the
 * parent can subtract it from its own readings.
 *
 * <p>A JVM shutdown hook ({@link Process#destroy()}, SIGTERM) closes the elector, which releases the lease, and prints
 * {@code ev=CLOSED} with the time the release was answered and the holder the elector last saw ({@code -}: none,
 * the release took effect). {@link Process#destroyForcibly()} (SIGKILL) runs no hook:
 * the lease is left to expire. The child also exits when its stdin reaches end of file: the harness has gone.
 *
 * <p>Arguments: endpoint, bucket, prefix, lease key, owner, TTL in ms. Or, over the Elasticsearch store:
 * {@code es}, endpoint, index (in place of endpoint, bucket, prefix), lease key, owner, TTL in ms; the harness has run
 * the store's start-up check on the index once, so the child skips it, as the S3 child skips the conditional-write
 * probe.
 */
public final class ElectorChild {

    private static final PrintStream OUT = System.out;

    private ElectorChild() {
    }

    public static void main(String[] args) throws Exception {
        boolean search = args[0].equals("es");
        String key = args[3];
        String owner = args[4];
        Duration ttl = Duration.ofMillis(Long.parseLong(args[5]));

        AutoCloseable closeable;
        Backend backend;
        if (search) {
            ElasticsearchBackend store = ElasticsearchBackend.builder().endpoint(args[1]).index(args[2])
                    .createIndex(false).verify(false).build();
            closeable = store;
            backend = new Checked(store);
        } else {
            S3Backend store = S3Backend.builder()
                    .endpoint(URI.create(args[0])).pathStyle(true).region("us-east-1").credentials("bench", "bench")
                    .bucket(args[1]).prefix(args[2])
                    .verifyConditionalWrites(false)
                    .build();
            closeable = store;
            backend = store;
        }
        // Only the TTL is set: renew TTL/3, poll TTL/15, safety margin TTL/10, request timeout = renew (defaults).
        Elector elector = Elector.builder(backend, key).owner(owner).ttl(ttl).build();
        elector.addListener(event -> {
            if (event instanceof ElectionEvent.Acquired acquired) {
                print("ev=ACQUIRED owner=" + owner + " gen=" + acquired.lease().generation());
            } else if (event instanceof ElectionEvent.Renewed renewed) {
                print("ev=RENEWED owner=" + owner + " gen=" + renewed.lease().generation());
            } else if (event instanceof ElectionEvent.Lost lost) {
                print("ev=LOST owner=" + owner + " cause=" + lost.cause());
            } else if (event instanceof ElectionEvent.LeaderObserved observed) {
                print("ev=OBSERVED owner=" + owner + " holder="
                        + observed.holder().map(h -> h.owner().isEmpty() ? "-" : h.owner()).orElse("-"));
            } else if (event instanceof ElectionEvent.Problem problem) {
                print("ev=PROBLEM owner=" + owner + " kind=" + problem.kind());
            }
        });
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            print("ev=STOPPING owner=" + owner);
            elector.close();
            // After a release the elector has seen the store free (no holder); if it still sees itself, the release
            // did not take effect and followers must wait for the lease to expire.
            print("ev=CLOSED owner=" + owner + " holder="
                    + elector.holder().map(h -> h.owner().isEmpty() ? "-" : h.owner()).orElse("-"));
            try {
                closeable.close();
            } catch (Exception ignored) {
                // exiting anyway
            }
        }, "elector-stop"));
        Thread orphanWatch = new Thread(() -> {
            try {
                while (System.in.read() >= 0) {
                    // the parent never writes; read() returns -1 when it has gone
                }
            } catch (java.io.IOException ignored) {
                // treated as gone
            }
            System.exit(0); // the harness died: stop (the shutdown hook releases), do not linger as an orphan
        }, "orphan-watch");
        orphanWatch.setDaemon(true);
        orphanWatch.start();
        elector.start();
        print("ev=STARTED owner=" + owner);
        new CountDownLatch(1).await();
    }

    private static synchronized void print(String line) {
        OUT.println(line + " nano=" + System.nanoTime() + " wall=" + System.currentTimeMillis());
        OUT.flush();
    }

    /** The Elasticsearch store without its start-up check, which the harness ran once on the index. */
    private record Checked(ElasticsearchBackend store) implements Backend {

        @Override
        public Optional<StoredObject> read(String key, Duration timeout) throws BackendException {
            return store.read(key, timeout);
        }

        @Override
        public WriteResult write(String key, Handle expected, byte[] content, Duration timeout)
                throws BackendException {
            return store.write(key, expected, content, timeout);
        }

        @Override
        public DeleteResult delete(String key, Handle expected, Duration timeout) throws BackendException {
            return store.delete(key, expected, timeout);
        }

        @Override
        public StoreCapabilities verify() {
            return StoreCapabilities.assumed(store.describe());
        }

        @Override
        public String describe() {
            return store.describe();
        }
    }
}
