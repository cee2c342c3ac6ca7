package dev.hoplock.samples.leaderdemo;

import dev.hoplock.core.Lease;
import dev.hoplock.spring.leader.LeaderContextHolder;
import dev.hoplock.spring.leader.LeaderOnly;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

import java.util.concurrent.atomic.AtomicLong;

/** Logs a heartbeat every second, on the leader only; followers skip it without asking the store. */
@Component
public class HeartbeatJob {

    private static final Logger log = LoggerFactory.getLogger(HeartbeatJob.class);

    private final AtomicLong beats = new AtomicLong();

    @Scheduled(fixedRate = 1000)
    @LeaderOnly
    public void beat() {
        Lease lease = LeaderContextHolder.currentLease().orElseThrow();
        log.info("leader {} (generation {}): heartbeat #{}", lease.owner(), lease.generation(),
                beats.incrementAndGet());
    }

    /** Heartbeats logged by this instance so far. */
    public long beats() {
        return beats.get();
    }
}
