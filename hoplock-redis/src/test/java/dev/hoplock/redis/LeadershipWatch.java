package dev.hoplock.redis;

import dev.hoplock.core.election.Elector;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Samples the {@code isLeader()} of several electors in one JVM every millisecond, on one clock, and adds up how long
 * two or more said "leader" at once, and the longest time after a mark in which none did.
 */
final class LeadershipWatch implements AutoCloseable {

    private final List<Elector> electors;
    private final Thread sampler;
    private volatile boolean running = true;
    private volatile long markNanos = Long.MAX_VALUE;
    private long overlapNanos;
    private long longestGapNanos;
    private long gapStartNanos = -1;
    private final boolean[] everLedAfterMark;

    LeadershipWatch(List<Elector> electors) {
        this.electors = List.copyOf(electors);
        this.everLedAfterMark = new boolean[electors.size()];
        this.sampler = new Thread(this::sample, "leadership-watch");
        sampler.setDaemon(true);
        sampler.start();
    }

    /** From now on, count times without a leader (the failover's trigger). */
    void mark() {
        markNanos = System.nanoTime();
    }

    private void sample() {
        long last = System.nanoTime();
        while (running) {
            long now = System.nanoTime();
            int leading = 0;
            for (int i = 0; i < electors.size(); i++) {
                if (electors.get(i).isLeader()) {
                    leading++;
                    if (now >= markNanos) {
                        synchronized (this) {
                            everLedAfterMark[i] = true;
                        }
                    }
                }
            }
            synchronized (this) {
                if (leading >= 2) {
                    overlapNanos += now - last;
                }
                if (now >= markNanos) {
                    if (leading == 0) {
                        if (gapStartNanos < 0) {
                            gapStartNanos = Math.max(last, markNanos);
                        }
                        longestGapNanos = Math.max(longestGapNanos, now - gapStartNanos);
                    } else {
                        gapStartNanos = -1;
                    }
                }
            }
            last = now;
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    synchronized long overlapMillis() {
        return overlapNanos / 1_000_000;
    }

    synchronized long longestGapMillis() {
        return longestGapNanos / 1_000_000;
    }

    synchronized boolean ledAfterMark(int elector) {
        return everLedAfterMark[elector];
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        sampler.join(2_000);
    }
}
