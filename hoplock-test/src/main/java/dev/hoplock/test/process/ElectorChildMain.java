package dev.hoplock.test.process;

import dev.hoplock.core.election.ElectionEvent;
import dev.hoplock.core.election.Elector;
import dev.hoplock.core.election.LeaderScope;
import dev.hoplock.core.Lease;
import dev.hoplock.core.backend.Backend;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The body of a child JVM for {@link ElectorProcessesTest}: one {@link Elector} over a store that the calling main
 * class opens, and leader work that asks {@code isLeader()} every 20 ms and reports what it saw on stdout, one line
 * of {@code key=value} fields each (see {@link KeyValueLine}):
 * <ul>
 *   <li>{@code type=LEADS generation=g first=<nanos>}: the first check of a term that said "leader" (the reading just
 *       after it);</li>
 *   <li>{@code type=TICK generation=g last=<nanos>} about every 100 ms while it leads, and
 *       {@code type=ENDED generation=g last=<nanos>} at the first check that no longer says so: the reading just
 *       before the term's latest check that said "leader";</li>
 *   <li>the elector's events ({@code ACQUIRED}, {@code LOST cause=...}, {@code OBSERVED holder=...}) and
 *       {@code STARTED} / {@code CLOSED}.</li>
 * </ul>
 * Every line carries {@code owner=}. Readings are {@link System#nanoTime()}, CLOCK_MONOTONIC on Linux, one clock for
 * every process of the machine. A JVM shutdown hook (SIGTERM) closes the elector, which releases the lease, waits up
 * to 5 s for the work to report its end and, if it was leading, for its {@code LOST} line, prints {@code CLOSED} and
 * then closes the store.
 *
 * <p>Arguments: the store's own arguments (any number, given to the {@link StoreOpener}), then lease key, owner, TTL
 * in ms, poll interval in ms.
 */
public final class ElectorChildMain {

    /** How the main class of a store module opens its store in the child. */
    @FunctionalInterface
    public interface StoreOpener {

        /**
         * Opens the store named by {@code storeArguments}; the elector's TTL is given for timeouts. The store exists
         * already (the test made it).
         */
        OpenStore open(List<String> storeArguments, Duration ttl) throws Exception;
    }

    /**
     * An opened store: the backend the elector runs over, and what to close when the child stops (a connection
     * pool, or the backend itself), after the elector was closed.
     */
    public record OpenStore(Backend backend, AutoCloseable resources) {
    }

    private ElectorChildMain() {
    }

    /**
     * Opens the store, starts the elector and its work and returns; the child then runs until it is signalled.
     *
     * @param args the main class's arguments, as described on this class
     */
    public static void run(String[] args, StoreOpener opener) throws Exception {
        if (args.length < 4) {
            throw new IllegalArgumentException("expected store arguments, then key, owner, TTL ms, poll ms; got "
                    + Arrays.toString(args));
        }
        int n = args.length;
        String key = args[n - 4];
        String owner = args[n - 3];
        Duration ttl = Duration.ofMillis(Long.parseLong(args[n - 2]));
        Duration poll = Duration.ofMillis(Long.parseLong(args[n - 1]));
        OpenStore store = opener.open(List.of(args).subList(0, n - 4), ttl);
        Elector elector = Elector.builder(store.backend(), key).owner(owner).ttl(ttl).pollInterval(poll).build();
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
                    // Events reach listeners on the elector's event thread, which close() does not wait for: without
                    // this, the JVM could exit before the LOST line the tests read is printed.
                    lostPrinted.await(5, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            print("type=CLOSED owner=" + owner + " nanos=" + System.nanoTime());
            try {
                store.resources().close();
            } catch (Exception e) {
                e.printStackTrace();
            }
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
