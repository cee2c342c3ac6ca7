package dev.hoplock.spring.it;

import dev.hoplock.core.election.ElectionEvent;
import dev.hoplock.spring.leader.HoplockElections;
import dev.hoplock.spring.leader.LeaderContextHolder;
import dev.hoplock.spring.leader.LeaderOnly;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.event.ApplicationStartedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * One instance of a rolling restart, in its own JVM: a whole Spring Boot application with the default
 * {@code hoplock.campaign-when=ready} over a shared filesystem store, a warm-up (an application runner during which
 * the application is started but not ready) and a {@code @LeaderOnly} job every 20 ms. The warm-up lasts
 * {@code warmupMs}, or, given {@code stdin}, until the parent writes a line to this process's standard input (or
 * closes it): a test ends it itself, so it knows an instance is still warming up rather than hoping its own steps are
 * faster than a fixed warm-up.
 * It prints one line per fact, with wall-clock instants (one host, one clock) and monotonic times
 * ({@code System.nanoTime()}, CLOCK_MONOTONIC, comparable between the JVMs of one host):
 * {@code STARTED <instant>} (context started, warm-up begins), {@code READY <instant>}, {@code ACQUIRED <generation> <instant>}, {@code LOST <generation> <instant>},
 * {@code OBSERVED <holder>}, {@code RUN <generation> <startNanos> <endNanos>}.
 *
 * <p>The child of {@link RollingRestartTests} and of the benchmarks' {@code RollingRestartBench} (which reaches it
 * through this module's test-jar). Arguments: directory, owner, ttlMs, warmupMs or {@code stdin}, then any further
 * Spring properties
 * ({@code key=value}; how each caller wants the child's logs). Stopped by SIGTERM (Boot's shutdown hook closes the
 * context: the elector releases the lease, and the shutdown waits up to a second for each term's {@code LOST} line).
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
@EnableScheduling
public class RollingChild {

    public static void main(String[] args) {
        long ttlMs = Long.parseLong(args[2]);
        new SpringApplicationBuilder(RollingChild.class)
                .web(WebApplicationType.NONE)
                .properties("spring.main.banner-mode=off",
                        "hoplock.backend=filesystem", "hoplock.filesystem.directory=" + args[0],
                        "hoplock.owner=" + args[1], "hoplock.ttl=" + ttlMs + "ms", "hoplock.renew=" + ttlMs / 3 + "ms",
                        "hoplock.poll=" + ttlMs / 15 + "ms", "hoplock.release-timeout=1s",
                        "rolling.warmup=" + args[3])
                .properties(Arrays.copyOfRange(args, 4, args.length))
                .run();
    }

    /** Terms acquired and not yet reported lost: the shutdown waits (briefly) until it is zero. */
    private static int openTerms;

    private static synchronized void termOpened() {
        openTerms++;
    }

    private static synchronized void termClosed() {
        openTerms--;
        RollingChild.class.notifyAll();
    }

    private static synchronized void awaitTermsClosed(long millis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (openTerms > 0 && System.nanoTime() < deadline) {
            RollingChild.class.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        }
    }

    /**
     * Stops after hoplock's lifecycle (a lower phase stops later) and waits up to a second until the {@code LOST} line
     * of every term has been printed: events are delivered on another thread, and the JVM would otherwise exit first.
     */
    @Bean
    org.springframework.context.SmartLifecycle awaitLastLoss() {
        return new org.springframework.context.SmartLifecycle() {
            private volatile boolean running;

            @Override
            public void start() {
                running = true;
            }

            @Override
            public void stop() {
                running = false;
                try {
                    awaitTermsClosed(1000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }

            @Override
            public boolean isRunning() {
                return running;
            }

            @Override
            public int getPhase() {
                return DEFAULT_PHASE - 1;
            }
        };
    }

    static synchronized void say(String line) {
        System.out.println(line);
        System.out.flush();
    }

    /** Reports every term and every holder seen, from the moment the context has started. */
    @Bean
    ApplicationListener<ApplicationStartedEvent> reportElection(HoplockElections elections) {
        return started -> {
            say("STARTED " + Instant.now());
            elections.getDefault().addListener(event -> {
            if (event instanceof ElectionEvent.Acquired acquired) {
                termOpened();
                say("ACQUIRED " + acquired.lease().generation() + " " + acquired.at());
            } else if (event instanceof ElectionEvent.Lost lost) {
                say("LOST " + lost.lease().generation() + " " + lost.at());
                termClosed();
            } else if (event instanceof ElectionEvent.LeaderObserved observed) {
                say("OBSERVED " + observed.holder().map(holder -> holder.owner()).orElse("-"));
            }
            });
        };
    }

    @Bean
    ApplicationListener<AvailabilityChangeEvent<ReadinessState>> reportReadiness() {
        return change -> {
            if (change.getState() == ReadinessState.ACCEPTING_TRAFFIC) {
                say("READY " + Instant.now());
            }
        };
    }

    /** The application's warm-up: started, not ready, for warmupMs or until a line arrives on standard input. */
    @Bean
    ApplicationRunner warmUp(org.springframework.core.env.Environment environment) {
        String warmup = environment.getRequiredProperty("rolling.warmup");
        if (warmup.equals("stdin")) {
            return arguments -> new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        }
        long warmupMs = Long.parseLong(warmup);
        return arguments -> TimeUnit.MILLISECONDS.sleep(warmupMs);
    }

    @Bean
    Job job() {
        return new Job();
    }

    /** Leader work: about 5 ms, under the gate, with the generation it ran under. */
    public static class Job {
        @Scheduled(fixedRate = 20)
        @LeaderOnly
        public void run() {
            long generation = LeaderContextHolder.currentLease().orElseThrow().generation();
            long start = System.nanoTime();
            try {
                TimeUnit.MILLISECONDS.sleep(5);
            } catch (InterruptedException e) {
                // Leadership ended: stop at once.
                Thread.currentThread().interrupt();
            } finally {
                say("RUN " + generation + " " + start + " " + System.nanoTime());
            }
        }
    }
}
