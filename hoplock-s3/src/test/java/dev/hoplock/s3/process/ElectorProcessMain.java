package dev.hoplock.s3.process;

import dev.hoplock.core.election.ElectionEvent;
import dev.hoplock.core.election.Elector;
import dev.hoplock.s3.S3Backend;

import java.io.PrintStream;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One elector in its own JVM, for {@link ElectorProcessesTest}: builds an {@link S3Backend} and an {@link Elector}
 * over the test S3 server, starts it, and prints every event as one line of {@code key=value} fields on stdout
 * (see {@link EventLine}). A JVM shutdown hook (SIGTERM, {@link Process#destroy()}) closes the elector, which
 * releases the lease. Logs go to stderr.
 *
 * <p>Arguments: endpoint, bucket, prefix, lease key, owner, TTL in ms, poll interval in ms. Credentials come from
 * the environment ({@value #ACCESS_KEY_VARIABLE}, {@value #SECRET_KEY_VARIABLE}), never from the command line.
 */
public final class ElectorProcessMain {

    /** The environment variable with the access key id (default "test", which S3Mock accepts). */
    static final String ACCESS_KEY_VARIABLE = "HOPLOCK_TEST_S3_ACCESS_KEY";
    /** The environment variable with the secret key (default "test"). */
    static final String SECRET_KEY_VARIABLE = "HOPLOCK_TEST_S3_SECRET_KEY";

    private ElectorProcessMain() {
    }

    private static String env(String name) {
        String value = System.getenv(name);
        return value == null || value.isEmpty() ? "test" : value;
    }

    public static void main(String[] args) throws Exception {
        URI endpoint = URI.create(args[0]);
        String bucket = args[1];
        String prefix = args[2];
        String key = args[3];
        String owner = args[4];
        Duration ttl = Duration.ofMillis(Long.parseLong(args[5]));
        Duration poll = Duration.ofMillis(Long.parseLong(args[6]));
        PrintStream out = System.out;

        S3Backend backend = S3Backend.builder()
                .endpoint(endpoint).pathStyle(true).region("us-east-1").credentials(env(ACCESS_KEY_VARIABLE), env(SECRET_KEY_VARIABLE))
                .bucket(bucket).prefix(prefix)
                // The backend's request timeout is left at its default (10 s): it bounds each request of the store
                // probe that verify() runs, while the elector's own budget for lease requests (a third of the TTL)
                // applies within it, so the failover behaves as with a 2 s cap. The elector's 666 ms budget for a
                // whole verify() is shorter than a probe (about ten sequential requests) on a loaded machine; the
                // elector retries after a poll and the backend remembers the probe that completed meanwhile. A 2 s cap
                // per probe request failed every probe while S3Mock took 3-4 s to answer, so no child verified.
                // The elector verifies the store before it campaigns (and retries a probe that timed out, as a loaded
                // CI machine makes it do); a probe at build would end this JVM on the first slow answer instead.
                .verifyOnBuild(false)
                .build();
        Elector elector = Elector.builder(backend, key)
                .owner(owner)
                .ttl(ttl)
                .pollInterval(poll)
                .build();
        CountDownLatch stoppedLeading = new CountDownLatch(1);
        elector.addListener(event -> {
            print(out, EventLine.of(owner, event));
            if (event instanceof ElectionEvent.Lost) {
                stoppedLeading.countDown();
            }
        });
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            boolean wasLeading = elector.isLeader();
            elector.close();
            if (wasLeading) {
                try {
                    // The Lost event is delivered on the elector's event thread; let it reach stdout before exit.
                    stoppedLeading.await(2, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            print(out, "type=CLOSED owner=" + owner + " at=" + System.currentTimeMillis());
            backend.close();
        }, "elector-stop"));

        elector.start();
        print(out, "type=STARTED owner=" + owner + " at=" + System.currentTimeMillis());
        new CountDownLatch(1).await();
    }

    private static synchronized void print(PrintStream out, String line) {
        out.println(line);
        out.flush();
    }
}
