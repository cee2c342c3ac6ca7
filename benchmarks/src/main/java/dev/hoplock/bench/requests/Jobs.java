package dev.hoplock.bench.requests;

import dev.hoplock.spring.leader.LeaderOnly;
import dev.hoplock.spring.lock.WithLock;
import net.javacrumbs.shedlock.spring.annotation.SchedulerLock;
import org.springframework.scheduling.annotation.Scheduled;

/**
 * The job under test, every 100 ms on each instance, and an ungated control job on the same scheduler. Their bodies
 * are identical and tiny; what is measured is what wraps them.
 */
public final class Jobs {

    private Jobs() {
    }

    /** The body: a few nanoseconds of work, timed, and the mark that tells the decorator it ran. */
    static void body(JobStats.Kind kind) {
        long start = System.nanoTime();
        sink ^= start * 31 + 7;
        JobStats.markBody(kind, System.nanoTime() - start);
    }

    static volatile long sink;

    /** hoplock: the job runs on the leader only, gated by {@code @LeaderOnly} (local lease state, no request). */
    public static class HoplockJob {
        @Scheduled(fixedRate = 100)
        @LeaderOnly
        public void tick() {
            body(JobStats.Kind.EXECUTED);
        }
    }

    /**
     * ShedLock: every run takes a lock in the database. {@code lockAtLeastFor} 90 ms (just under the period) keeps the
     * other instances, whose schedules are out of phase, from running the same period again once the holder unlocked.
     */
    public static class ShedlockJob {
        @Scheduled(fixedRate = 100)
        @SchedulerLock(name = "bench-tick", lockAtMostFor = "PT10S", lockAtLeastFor = "PT0.09S")
        public void tick() {
            body(JobStats.Kind.EXECUTED);
        }
    }

    /**
     * hoplock's {@code @WithLock}: every run takes a named lock in the store, with the settings of {@link ShedlockJob}
     * ({@code lockAtMostFor} 10 s, {@code lockAtLeastFor} 90 ms), so that the two count the same thing.
     */
    public static class HoplockLockJob {
        @Scheduled(fixedRate = 100)
        @WithLock(name = "bench-tick", lockAtMostFor = "10s", lockAtLeastFor = "90ms")
        public void tick() {
            body(JobStats.Kind.EXECUTED);
        }
    }

    /** The same body without any gate. */
    public static class ControlJob {
        @Scheduled(fixedRate = 100)
        public void control() {
            body(JobStats.Kind.CONTROL);
        }
    }
}
