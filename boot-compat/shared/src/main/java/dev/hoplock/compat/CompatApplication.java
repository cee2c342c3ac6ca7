package dev.hoplock.compat;

import dev.hoplock.spring.leader.LeaderOnly;
import dev.hoplock.spring.leader.ElectionApplicationEvent;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.event.EventListener;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A small web application with the hoplock starter, built against each supported Spring Boot version (and with
 * Spring AOT): one {@code @LeaderOnly} method, a listener that records every leadership event, the actuator's health,
 * metrics and hoplock endpoint. The compatibility tests start two of them over one filesystem store.
 */
@SpringBootApplication
public class CompatApplication {

    /** Starts the application. */
    public static void main(String[] args) {
        SpringApplication.run(CompatApplication.class, args);
    }

    @Bean
    GatedWork gatedWork() {
        return new GatedWork();
    }

    @Bean
    EventLog eventLog() {
        return new EventLog();
    }

    /** Work that only the leader does. */
    public static class GatedWork {

        private final AtomicInteger runs = new AtomicInteger();

        /** Runs on the leader (returns the number of runs so far); skipped on a follower (returns null). */
        @LeaderOnly
        public @Nullable Integer work() {
            return runs.incrementAndGet();
        }

        /** How often {@link #work()} ran here. */
        public int runs() {
            return runs.get();
        }
    }

    /** Every hoplock leadership event this application published, in order. */
    public static class EventLog {

        private final List<ElectionApplicationEvent> events = new CopyOnWriteArrayList<>();

        @EventListener
        public void on(ElectionApplicationEvent event) {
            events.add(event);
        }

        /** The events so far. */
        public List<ElectionApplicationEvent> events() {
            return List.copyOf(events);
        }
    }
}
