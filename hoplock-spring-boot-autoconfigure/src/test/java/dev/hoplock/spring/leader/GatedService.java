package dev.hoplock.spring.leader;

import dev.hoplock.core.election.LeaderScope;
import dev.hoplock.core.Lease;

import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

/** A bean with every kind of leader-only method the tests call. */
public class GatedService {

    private final AtomicInteger runs = new AtomicInteger();

    /** How many gated calls ran (not gated itself). */
    public int runs() {
        return runs.get();
    }

    @LeaderOnly
    public Optional<String> optional() {
        runs.incrementAndGet();
        return Optional.of("ran");
    }

    @LeaderOnly
    public List<String> list() {
        runs.incrementAndGet();
        return List.of("ran");
    }

    @LeaderOnly
    public Set<String> set() {
        runs.incrementAndGet();
        return Set.of("ran");
    }

    @LeaderOnly
    public Map<String, String> map() {
        runs.incrementAndGet();
        return Map.of("ran", "ran");
    }

    @LeaderOnly
    public NavigableMap<String, String> navigableMap() {
        runs.incrementAndGet();
        return new TreeMap<>(Map.of("ran", "ran"));
    }

    @LeaderOnly
    public Stream<String> stream() {
        runs.incrementAndGet();
        return Stream.of("ran");
    }

    @LeaderOnly
    public String[] array() {
        runs.incrementAndGet();
        return new String[] {"ran"};
    }

    @LeaderOnly
    public CompletableFuture<String> future() {
        runs.incrementAndGet();
        return CompletableFuture.completedFuture("ran");
    }

    @LeaderOnly
    public String string() {
        runs.incrementAndGet();
        return "ran";
    }

    @LeaderOnly
    public void voidCall() {
        runs.incrementAndGet();
    }

    @LeaderOnly(onNonLeader = OnNonLeader.THROW)
    public String mustLead() {
        runs.incrementAndGet();
        return "ran";
    }

    /** A primitive return type is fine when the call is never skipped. */
    @LeaderOnly(onNonLeader = OnNonLeader.THROW)
    public int primitiveThrows() {
        runs.incrementAndGet();
        return 42;
    }

    @LeaderOnly
    public Lease lease() {
        return LeaderContextHolder.currentLease().orElseThrow();
    }

    /** Blocks until interrupted; says whether it was. */
    @LeaderOnly
    public String blockUntilInterrupted(CountDownLatch entered) {
        entered.countDown();
        try {
            new CountDownLatch(1).await();
            return "not interrupted";
        } catch (InterruptedException e) {
            return "interrupted";
        }
    }

    /**
     * Publishes its scope, then waits for {@code release} without reacting to interrupts, so that an interrupt flag
     * set before or during the call is still set when it returns.
     */
    @LeaderOnly
    public void holdUninterruptibly(AtomicReference<LeaderScope> scope, Semaphore release) {
        scope.set((LeaderScope) LeaderContextHolder.require());
        release.acquireUninterruptibly();
    }

    /** Waits for {@code release}; says whether it was interrupted and whether it still leads. */
    @LeaderOnly(interruptOnLoss = false)
    public String waitWithoutInterrupt(CountDownLatch entered, CountDownLatch release) throws InterruptedException {
        entered.countDown();
        release.await();
        if (Thread.currentThread().isInterrupted()) {
            return "interrupted";
        }
        return LeaderContextHolder.require().isLeading() ? "leading" : "not leading";
    }
}
