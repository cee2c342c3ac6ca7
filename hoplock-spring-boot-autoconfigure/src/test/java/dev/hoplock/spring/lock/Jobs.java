package dev.hoplock.spring.lock;

import dev.hoplock.core.lock.LockHandle;
import org.jspecify.annotations.Nullable;

import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** {@code @WithLock} methods for the tests: a job that can be held inside its call, and one of each option. */
public class Jobs {

    private final AtomicInteger reports = new AtomicInteger();
    /** Counted down when a blocking report call is inside its lock. */
    private volatile CountDownLatch entered = new CountDownLatch(1);
    /** When not null, a report call waits inside its lock until this is counted down. */
    private volatile @Nullable CountDownLatch hold;

    /** Makes the next report calls wait inside their lock until {@link #letGo()}; returns the "entered" latch. */
    public CountDownLatch holdNextCall() {
        entered = new CountDownLatch(1);
        hold = new CountDownLatch(1);
        return entered;
    }

    public void letGo() {
        Objects.requireNonNull(hold, "holdNextCall() first").countDown();
        hold = null;
    }

    public int reports() {
        return reports.get();
    }

    @WithLock(name = "report", lockAtMostFor = "1m")
    public String report() throws InterruptedException {
        reports.incrementAndGet();
        CountDownLatch wait = hold;
        if (wait != null) {
            entered.countDown();
            wait.await(30, TimeUnit.SECONDS);
        }
        return "ran";
    }

    @WithLock(name = "report", lockAtMostFor = "1m", whenHeld = WhenLockHeld.THROW)
    public String reportOrThrow() {
        reports.incrementAndGet();
        return "ran";
    }

    /** The lock the call runs under, by a SpEL name over its argument. */
    @WithLock(name = "invoice-#{#id}/#{#p1}", lockAtMostFor = "PT1M")
    public LockHandle invoice(String id, int part) {
        return LockContextHolder.require();
    }

    /** Holds its lock for at least {@code test.at-least} (a placeholder) after the acquisition. */
    @WithLock(name = "hourly", lockAtMostFor = "30s", lockAtLeastFor = "${test.at-least:2s}")
    public Long hourly() {
        return LockContextHolder.currentToken().orElseThrow();
    }

    /** Runs longer than its lock: waits until interrupted (or 20 s), then says whether the lock still held. */
    @WithLock(name = "short", lockAtMostFor = "500ms")
    public String overrun() {
        try {
            new CountDownLatch(1).await(20, TimeUnit.SECONDS);
            return "not interrupted";
        } catch (InterruptedException e) {
            return "interrupted, held=" + LockContextHolder.require().isHeld();
        }
    }
}
