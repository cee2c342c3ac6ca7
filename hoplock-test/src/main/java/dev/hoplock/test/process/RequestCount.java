package dev.hoplock.test.process;

import dev.hoplock.core.election.Elector;
import dev.hoplock.core.backend.Backend;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntSupplier;

import static org.awaitility.Awaitility.await;

/**
 * A measurement of what electors cost a store: three {@link Elector}s in this JVM over {@code backends} (one each) at
 * {@code ttl} (renew TTL/3, poll TTL/15), and the store requests counted (by the caller's counter, for example a proxy
 * in front of the store) in a window of {@code window} after a leader exists and every elector has verified the store.
 * The protocol's formula for comparison: {@code 3600/renew + (n - 1) x 3600/poll} requests per hour. For a Maven
 * profile or a script: it takes the window plus the start.
 */
public final class RequestCount {

    /** What the window saw. */
    public record Result(long requests, Duration window, long perHour) {
        @Override
        public String toString() {
            return String.format("%d requests in %d s, %d per hour for 3 electors", requests, window.toSeconds(),
                    perHour);
        }
    }

    private RequestCount() {
    }

    /**
     * @param counter how many requests the store has received so far; read exactly twice, at the start and at the
     *                end of the window (so that a caller may keep what else it needs at those two instants, such as the
     *                requests by kind)
     */
    public static Result measure(List<Backend> backends, Duration ttl, Duration window, IntSupplier counter) {
        List<Elector> electors = new ArrayList<>();
        try {
            for (int i = 0; i < backends.size(); i++) {
                Elector elector = Elector.builder(backends.get(i), "requests/leader").owner("i" + (i + 1)).ttl(ttl)
                        .build();
                electors.add(elector);
                elector.start();
            }
            await("a leader").atMost(Duration.ofMinutes(2)).until(() -> electors.stream().anyMatch(Elector::isLeader));
            // A poll's worth more, so that every follower has verified the store and read the lease once.
            LockSupport.parkNanos(ttl.toNanos() / 5);
            int before = counter.getAsInt();
            long start = System.nanoTime();
            LockSupport.parkNanos(window.toNanos());
            long took = System.nanoTime() - start;
            long requests = counter.getAsInt() - before;
            return new Result(requests, window, requests * TimeUnit.HOURS.toNanos(1) / took);
        } finally {
            electors.forEach(Elector::close);
        }
    }
}
