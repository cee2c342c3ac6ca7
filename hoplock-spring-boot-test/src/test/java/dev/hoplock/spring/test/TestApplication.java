package dev.hoplock.spring.test;

import dev.hoplock.spring.leader.LeaderOnly;
import dev.hoplock.spring.lock.WithLock;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/** A small application as the module's tests see one: a scheduled leader-only job, a locked method, a keyed one. */
@SpringBootApplication
@EnableScheduling
public class TestApplication {

    /** The gated methods; their bodies do nothing, {@link GateCalls} counts what ran. */
    @Component
    public static class Jobs {

        @Scheduled(fixedDelay = 20)
        @LeaderOnly
        public void heartbeat() {
        }

        @WithLock(name = "report", lockAtMostFor = "1m")
        public String report() {
            return "done";
        }

        @LeaderOnly(key = "#tenant")
        public void bill(String tenant) {
        }

        @WithLock(name = "daily-export", lockAtMostFor = "10m", lockAtLeastFor = "1m")
        public void dailyExport() {
        }
    }
}
