package dev.hoplock.spring.it;

import dev.hoplock.core.Lease;
import dev.hoplock.spring.leader.LeaderContextHolder;
import dev.hoplock.spring.leader.LeaderOnly;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A whole Spring Boot application with one {@code @Scheduled @LeaderOnly} job, for tests that run two of them in
 * one JVM. Every run of the job is recorded, with its owner, generation and times, in {@link #EXECUTIONS}.
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
@EnableScheduling
public class DemoJobApplication {

    /** Every run of the job, in every application of this JVM. */
    public static final Queue<Execution> EXECUTIONS = new ConcurrentLinkedQueue<>();

    /** The owner whose job blocks until interrupted; null: no job blocks. */
    public static volatile String blockingOwner;

    /** Counted down when the blocking owner's job has started blocking. */
    public static volatile CountDownLatch blocking = new CountDownLatch(1);

    @Bean
    Job job(Environment environment) {
        return new Job(environment.getRequiredProperty("hoplock.owner"));
    }

    /** Clears the record between tests. */
    public static void reset() {
        EXECUTIONS.clear();
        blockingOwner = null;
        blocking = new CountDownLatch(1);
    }

    /** The recorded runs of {@code owner}. */
    public static List<Execution> of(String owner) {
        return EXECUTIONS.stream().filter(e -> e.owner().equals(owner)).toList();
    }

    /**
     * One run of the job.
     *
     * @param owner       the application's owner id
     * @param generation  the generation of the lease the run ran under (from {@link LeaderContextHolder})
     * @param startNanos  when it started
     * @param endNanos    when it ended
     * @param interrupted whether it was interrupted
     */
    public record Execution(String owner, long generation, long startNanos, long endNanos, boolean interrupted) {
    }

    /** The job: about 10 ms of work, or, for the blocking owner, waiting until interrupted. */
    public static class Job {
        private final String owner;

        Job(String owner) {
            this.owner = owner;
        }

        @Scheduled(fixedRate = 30)
        @LeaderOnly
        public void run() {
            Lease lease = LeaderContextHolder.currentLease().orElseThrow();
            long start = System.nanoTime();
            boolean interrupted = false;
            try {
                if (owner.equals(blockingOwner)) {
                    blocking.countDown();
                    new CountDownLatch(1).await();
                } else {
                    TimeUnit.MILLISECONDS.sleep(10);
                }
            } catch (InterruptedException e) {
                interrupted = true;
            }
            EXECUTIONS.add(new Execution(owner, lease.generation(), start, System.nanoTime(), interrupted));
        }
    }
}
