package dev.hoplock.spring.it;

import dev.hoplock.core.ElectionEvent;
import dev.hoplock.spring.HoplockElections;
import dev.hoplock.spring.LeaderContextHolder;
import dev.hoplock.spring.annotation.LeaderOnly;
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
import java.util.concurrent.TimeUnit;

/**
 * One instance of a rolling restart, in its own JVM: a whole Spring Boot application with the default
 * {@code hoplock.campaign-when=ready} over a shared filesystem store, a warm-up (an application runner that lasts
 * until the parent writes a line, {@code WARMED}, to this process's standard input; meanwhile the application is
 * started but not ready) and a {@code @LeaderOnly} job every 20 ms. The parent ends the warm-up, so a test can
 * know that an instance is still warming up, rather than hope that its own steps are faster than a fixed warm-up.
 * It prints one line per fact, with wall-clock instants (one host, one clock) and monotonic times
 * ({@code System.nanoTime()}, CLOCK_MONOTONIC, comparable between the JVMs of one host):
 * {@code STARTED <instant>} (context started, warm-up begins), {@code READY <instant>}, {@code ACQUIRED <generation> <instant>}, {@code LOST <generation> <instant>},
 * {@code OBSERVED <holder>}, {@code RUN <generation> <startNanos> <endNanos>}.
 *
 * <p>Arguments: directory, owner, ttlMs. Stopped by SIGTERM (Boot's shutdown hook closes the context: the
 * elector releases the lease).
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
@EnableScheduling
public class RollingChild {

    public static void main(String[] args) {
        long ttlMs = Long.parseLong(args[2]);
        new SpringApplicationBuilder(RollingChild.class)
                .web(WebApplicationType.NONE)
                .properties("spring.main.banner-mode=off", "logging.level.root=WARN",
                        "hoplock.backend=filesystem", "hoplock.filesystem.directory=" + args[0],
                        "hoplock.owner=" + args[1], "hoplock.ttl=" + ttlMs + "ms", "hoplock.renew=" + ttlMs / 3 + "ms",
                        "hoplock.poll=" + ttlMs / 15 + "ms", "hoplock.release-timeout=1s")
                .run();
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
                say("ACQUIRED " + acquired.lease().generation() + " " + acquired.at());
            } else if (event instanceof ElectionEvent.Lost lost) {
                say("LOST " + lost.lease().generation() + " " + lost.at());
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

    /**
     * The application's warm-up: started, not ready, until the parent writes a line to standard input (or closes it).
     */
    @Bean
    ApplicationRunner warmUp() {
        return arguments -> new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
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
