package dev.hoplock.s3.ownership;

import dev.hoplock.core.ownership.OwnershipClaim;
import dev.hoplock.core.ownership.OwnershipEvent;
import dev.hoplock.core.ownership.OwnershipGroup;
import dev.hoplock.s3.S3Backend;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * One member of an ownership group in its own JVM, for {@link OwnershipProcessesTest}: an {@link OwnershipGroup} over
 * the test S3 server, and a worker per key that, whenever this member acts as the key's owner, opens a claim, works
 * for 100 ms, and if the claim is still valid afterwards appends {@code key token startMillis endMillis owner} to its
 * sink file (one file per process, in a directory shared by all). A claim valid at its end was valid throughout, so
 * every line is an interval in which this process acted as the key's owner. A shutdown hook (SIGTERM) closes the
 * group, which deregisters and releases.
 *
 * <p>Arguments: endpoint, bucket, prefix, member id, owner, TTL ms, sink directory, number of keys. Credentials from
 * the environment ({@code HOPLOCK_TEST_S3_ACCESS_KEY}, {@code HOPLOCK_TEST_S3_SECRET_KEY}), default "test".
 */
public final class OwnershipProcessMain {

    private OwnershipProcessMain() {
    }

    private static String env(String name) {
        String value = System.getenv(name);
        return value == null || value.isEmpty() ? "test" : value;
    }

    public static void main(String[] args) throws Exception {
        URI endpoint = URI.create(args[0]);
        String bucket = args[1];
        String prefix = args[2];
        String memberId = args[3];
        String owner = args[4];
        Duration ttl = Duration.ofMillis(Long.parseLong(args[5]));
        Path sink = Path.of(args[6]).resolve(owner + ".sink");
        int keys = Integer.parseInt(args[7]);
        PrintStream out = System.out;

        S3Backend backend = S3Backend.builder()
                .endpoint(endpoint).pathStyle(true).region("us-east-1")
                .credentials(env("HOPLOCK_TEST_S3_ACCESS_KEY"), env("HOPLOCK_TEST_S3_SECRET_KEY"))
                .bucket(bucket).prefix(prefix).requestTimeout(Duration.ofSeconds(5))
                // The liveness elector runs the conditional-write probe before it campaigns, and retries it.
                .verifyOnBuild(false).build();
        OwnershipGroup group = OwnershipGroup.builder(backend, "workers").memberId(memberId).owner(owner)
                .address(owner + ":0").ttl(ttl).pollInterval(ttl.dividedBy(10)).build();
        group.addListener(event -> {
            if (event instanceof OwnershipEvent.MembershipChanged changed) {
                print(out, "type=MEMBERS owner=" + owner + " epoch=" + changed.epoch() + " members="
                        + changed.current().members().stream().map(m -> m.id()).toList());
            }
        });
        ScheduledExecutorService workers = Executors.newScheduledThreadPool(4);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            workers.shutdownNow();
            group.close();
            print(out, "type=CLOSED owner=" + owner);
            stopped.countDown();
        }, "member-stop"));
        group.start();
        print(out, "type=STARTED owner=" + owner);
        for (int i = 0; i < keys; i++) {
            String key = "key-" + i;
            workers.scheduleWithFixedDelay(() -> work(group, key, owner, sink), 0, 20, TimeUnit.MILLISECONDS);
        }
        stopped.await();
    }

    private static void work(OwnershipGroup group, String key, String owner, Path sink) {
        Optional<OwnershipClaim> opened = group.claim(key, true);
        if (opened.isEmpty()) {
            return;
        }
        try (OwnershipClaim claim = opened.get()) {
            long start = System.currentTimeMillis();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
            long end = System.currentTimeMillis();
            if (claim.isValid()) {
                String line = key + " " + claim.token() + " " + start + " " + end + " " + owner + "\n";
                synchronized (OwnershipProcessMain.class) {
                    Files.writeString(sink, line, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                            StandardOpenOption.APPEND);
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot write the sink " + sink, e);
        }
    }

    private static synchronized void print(PrintStream out, String line) {
        out.println(line);
        out.flush();
    }
}
