package dev.hoplock.spring.threads;

import dev.hoplock.core.election.Elector;
import dev.hoplock.spring.leader.HoplockElections;
import dev.hoplock.spring.leader.LeaderContextHolder;
import dev.hoplock.spring.leader.LeaderOnly;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.Async;
import org.springframework.scheduling.annotation.EnableAsync;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A Spring Boot application with {@code spring.threads.virtual.enabled=true}, run in a JVM of Java 21 or later by
 * {@link VirtualThreadsTests}: Boot then runs {@code @Async} and {@code @Scheduled} methods on virtual threads. It
 * exercises the {@code @LeaderOnly} gate there and prints one line per finding, {@code NAME key=value ...}:
 * <ul>
 *   <li>{@code SCHEDULED}: a scheduled leader-only job, its thread and the lease the holder showed;</li>
 *   <li>{@code HELD}: an {@code @Async} leader-only call blocked in its work, interrupted when the leader stepped
 *       down, with the lease the holder showed inside it;</li>
 *   <li>{@code SKIPPED}: an {@code @Async} leader-only call on a non-leader (skipped: no run, null result).</li>
 * </ul>
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
@EnableAsync
@EnableScheduling
public class VirtualThreadsChild {

    public static void main(String[] args) throws Exception {
        ConfigurableApplicationContext context = new SpringApplicationBuilder(VirtualThreadsChild.class)
                .web(WebApplicationType.NONE)
                .properties("spring.main.banner-mode=off", "logging.level.root=WARN", "spring.threads.virtual.enabled=true",
                        "hoplock.backend=memory", "hoplock.owner=virtual", "hoplock.ttl=2s")
                .run();
        try {
            Elector elector = context.getBean(HoplockElections.class).getDefault();
            Work work = context.getBean(Work.class);
            long generation = elector.currentLease().orElseThrow().generation();
            say("LEADER generation=" + generation);

            String scheduled = work.firstScheduledRun().get(30, TimeUnit.SECONDS);
            say("SCHEDULED " + scheduled);

            CountDownLatch entered = new CountDownLatch(1);
            CompletableFuture<String> held = work.hold(entered);
            if (!entered.await(30, TimeUnit.SECONDS)) {
                say("HELD never-entered");
                return;
            }
            elector.stepDown();
            say("HELD " + held.get(30, TimeUnit.SECONDS));

            CountDownLatch ran = new CountDownLatch(1);
            CompletableFuture<String> skipped = work.ping(ran);
            String result = skipped.get(30, TimeUnit.SECONDS);
            say("SKIPPED leader=" + elector.isLeader() + " ran=" + (ran.getCount() == 0) + " result=" + result);
        } finally {
            context.close();
            say("DONE");
        }
    }

    static void say(String line) {
        System.out.println(line);
        System.out.flush();
    }

    /** Whether the calling thread is virtual ({@code Thread.isVirtual()} is Java 21; this code compiles for 17). */
    static boolean onVirtualThread() {
        try {
            return (Boolean) Thread.class.getMethod("isVirtual").invoke(Thread.currentThread());
        } catch (ReflectiveOperationException e) {
            return false;
        }
    }

    static String lease() {
        return LeaderContextHolder.currentLease().map(lease -> Long.toString(lease.generation())).orElse("none");
    }

    @Bean
    Work work() {
        return new Work();
    }

    /** The gated methods. */
    public static class Work {

        private final CompletableFuture<String> scheduled = new CompletableFuture<>();

        /** What the first run of {@link #job()} found (not gated: read through the proxy). */
        public CompletableFuture<String> firstScheduledRun() {
            return scheduled;
        }

        @Scheduled(fixedRate = 50)
        @LeaderOnly
        public void job() {
            scheduled.complete("virtual=" + onVirtualThread() + " lease=" + lease());
        }

        @Async
        @LeaderOnly
        public CompletableFuture<String> hold(CountDownLatch entered) {
            String before = "virtual=" + onVirtualThread() + " lease=" + lease();
            entered.countDown();
            boolean interrupted;
            try {
                new CountDownLatch(1).await(30, TimeUnit.SECONDS);
                interrupted = false;
            } catch (InterruptedException e) {
                interrupted = true;
            }
            return CompletableFuture.completedFuture(before + " interrupted=" + interrupted + " leadingAfterLoss="
                    + LeaderContextHolder.require().isLeading());
        }

        @Async
        @LeaderOnly
        public CompletableFuture<String> ping(CountDownLatch ran) {
            ran.countDown();
            return CompletableFuture.completedFuture("ran");
        }
    }
}
