package dev.hoplock.elasticsearch;

import dev.hoplock.core.ElectionEvent;
import dev.hoplock.core.Elector;
import dev.hoplock.core.LeaderScope;
import dev.hoplock.core.Lease;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * One elector in its own JVM, for {@link ElasticsearchElectorProcessesTest}: an {@link Elector} over an
 * {@link ElasticsearchBackend} (its own JDK HTTP client) on the OpenSearch node of the test JVM that started it, and leader work that asks {@code isLeader()} every 20 ms and reports what it saw on
 * stdout, one line of {@code key=value} fields each:
 * <ul>
 *   <li>{@code type=LEADS generation=g first=<nanos>}: the first check of a term that said "leader" (the reading just
 *       after it);</li>
 *   <li>{@code type=TICK generation=g last=<nanos>} about every 100 ms while it leads, and
 *       {@code type=ENDED generation=g last=<nanos>} at the first check that no longer says so: the reading just
 *       before the term's latest check that said "leader";</li>
 *   <li>the elector's events ({@code ACQUIRED}, {@code LOST cause=...}, {@code OBSERVED holder=...}) and
 *       {@code STARTED} / {@code CLOSED}.</li>
 * </ul>
 * Readings are {@link System#nanoTime()}, CLOCK_MONOTONIC on Linux, one clock for every process of the machine. A JVM
 * shutdown hook (SIGTERM) closes the elector, which releases the lease, and waits for the work to report its end and,
 * if it was leading, for its {@code LOST} line (events reach listeners on the elector's event thread, which closing
 * does not wait for; the JVM would otherwise exit before that line is printed).
 *
 * <p>Arguments: endpoint, index, lease key, owner, TTL in ms, poll interval in ms.
 */
public final class SearchElectorMain {

    private SearchElectorMain() {
    }

    public static void main(String[] args) throws Exception {
        String owner = args[3];
        Duration ttl = Duration.ofMillis(Long.parseLong(args[4]));
        Duration poll = Duration.ofMillis(Long.parseLong(args[5]));
        // The elector runs the store's check before it campaigns; the index exists (the test created it).
        ElasticsearchBackend backend = ElasticsearchBackend.builder().endpoint(args[0]).index(args[1])
                .createIndex(false).requestTimeout(ttl).verify(false).build();
        Elector elector = Elector.builder(backend, args[2]).owner(owner).ttl(ttl).pollInterval(poll).build();
        CountDownLatch lostPrinted = new CountDownLatch(1);
        elector.addListener(event -> {
            print(describe(owner, event));
            if (event instanceof ElectionEvent.Lost) {
                lostPrinted.countDown();
            }
        });

        Thread work = new Thread(() -> reportLeadership(elector, owner), owner + "-work");
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            boolean wasLeading = elector.isLeader();
            elector.close();
            work.interrupt();
            try {
                work.join(TimeUnit.SECONDS.toMillis(5));
                if (wasLeading) {
                    lostPrinted.await(5, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            print("type=CLOSED owner=" + owner + " nanos=" + System.nanoTime());
            backend.close();
        }, owner + "-stop"));
        elector.start();
        print("type=STARTED owner=" + owner + " nanos=" + System.nanoTime());
        work.start();
    }

    /** Until interrupted: reports each term as this process's own isLeader() checks saw it. */
    private static void reportLeadership(Elector elector, String owner) {
        while (!Thread.currentThread().isInterrupted()) {
            Optional<LeaderScope> entered = elector.enterLeaderScope(false);
            if (entered.isEmpty()) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
                continue;
            }
            try (LeaderScope scope = entered.get()) {
                long generation = scope.lease().generation();
                long lastTrue = -1;
                long lastPrinted = 0;
                while (true) {
                    long before = System.nanoTime();
                    boolean leading = elector.isLeader()
                            && elector.currentLease().map(Lease::generation).orElse(-1L) == generation;
                    long after = System.nanoTime();
                    if (!leading) {
                        print("type=ENDED owner=" + owner + " generation=" + generation + " last=" + lastTrue);
                        break;
                    }
                    if (lastTrue < 0) {
                        print("type=LEADS owner=" + owner + " generation=" + generation + " first=" + after);
                    }
                    lastTrue = before;
                    if (after - lastPrinted >= TimeUnit.MILLISECONDS.toNanos(100)) {
                        print("type=TICK owner=" + owner + " generation=" + generation + " last=" + lastTrue);
                        lastPrinted = after;
                    }
                    // Not interruptible on purpose: the term ends by the elector's verdict, reported as ENDED.
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
                }
            }
        }
    }

    private static String describe(String owner, ElectionEvent event) {
        String tail = " owner=" + owner + " nanos=" + System.nanoTime();
        if (event instanceof ElectionEvent.Acquired e) {
            return "type=ACQUIRED generation=" + e.lease().generation() + tail;
        }
        if (event instanceof ElectionEvent.Lost e) {
            return "type=LOST generation=" + (e.lease() == null ? -1 : e.lease().generation()) + " cause=" + e.cause()
                    + tail;
        }
        if (event instanceof ElectionEvent.LeaderObserved e) {
            return "type=OBSERVED holder=" + e.holder().map(h -> h.owner().isEmpty() ? "-" : h.owner()).orElse("-")
                    + tail;
        }
        if (event instanceof ElectionEvent.Problem e) {
            return "type=PROBLEM kind=" + e.kind() + tail;
        }
        return "type=RENEWED" + tail;
    }

    private static synchronized void print(String line) {
        System.out.println(line);
        System.out.flush();
    }
}
