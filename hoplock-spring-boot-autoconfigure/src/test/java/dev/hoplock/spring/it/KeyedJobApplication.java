package dev.hoplock.spring.it;

import dev.hoplock.core.Lease;
import dev.hoplock.spring.leader.LeaderContextHolder;
import dev.hoplock.spring.leader.LeaderOnly;
import dev.hoplock.spring.ownership.OwnershipChangedEvent;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;
import org.springframework.core.env.Environment;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.IntStream;

/**
 * A whole application whose scheduled sweep offers every key of {@link #KEYS} to a {@code @LeaderOnly(key = "#orgId")}
 * method, for tests that run several of them in one JVM over one store. Every run is recorded with its member, key and
 * token in {@link #RUNS}; every {@link OwnershipChangedEvent} in {@link #EVENTS}.
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
@EnableScheduling
public class KeyedJobApplication {

    /** The keys every sweep offers. */
    public static final List<String> KEYS = IntStream.range(0, 40).mapToObj(i -> "org-" + i).toList();

    public static final Queue<Run> RUNS = new ConcurrentLinkedQueue<>();

    public static final Queue<Event> EVENTS = new ConcurrentLinkedQueue<>();

    public static void reset() {
        RUNS.clear();
        EVENTS.clear();
    }

    @Bean
    Billing billing(Environment environment) {
        return new Billing(environment.getRequiredProperty("hoplock.ownership.member-id"));
    }

    @Bean
    Sweep sweep(Billing billing) {
        return new Sweep(billing);
    }

    /**
     * One run of the keyed method.
     *
     * @param member          the member that ran it
     * @param key             the key
     * @param token           the key's fencing token, from {@link LeaderContextHolder}
     * @param sweepStartNanos when the sweep that offered the key started: the gate decided after this
     * @param startNanos      when it started
     * @param endNanos        when it ended
     */
    public record Run(String member, String key, long token, long sweepStartNanos, long startNanos, long endNanos) {
    }

    /** An ownership change event as one member received it. */
    public record Event(String member, OwnershipChangedEvent event) {
    }

    /** The keyed work. */
    public static class Billing {

        private final String member;

        Billing(String member) {
            this.member = member;
        }

        @LeaderOnly(key = "#orgId")
        public void bill(String orgId) {
            long start = System.nanoTime();
            Lease lease = LeaderContextHolder.currentLease().orElseThrow();
            if (!lease.key().equals(orgId)) {
                throw new IllegalStateException("the context names key " + lease.key() + " in the call for " + orgId);
            }
            RUNS.add(new Run(member, orgId, lease.generation(), Sweep.startOfCurrent(start), start,
                    System.nanoTime()));
        }

        @EventListener
        public void changed(OwnershipChangedEvent event) {
            EVENTS.add(new Event(member, event));
        }
    }

    /**
     * Offers every key to the keyed method; only the owner's call runs. Each sweep notes when it started, on its
     * thread, so a run can tell it: the gate of every call of a sweep decided after the sweep started, while a run's
     * own start is taken only after the gate, however long the thread was held up in between.
     */
    public static class Sweep {

        private static final ThreadLocal<Long> STARTED = new ThreadLocal<>();

        private final Billing billing;

        Sweep(Billing billing) {
            this.billing = billing;
        }

        /** When the sweep running on this thread started; {@code otherwise} when no sweep runs on it. */
        static long startOfCurrent(long otherwise) {
            Long started = STARTED.get();
            return started == null ? otherwise : started;
        }

        @Scheduled(fixedDelay = 50)
        public void sweep() {
            STARTED.set(System.nanoTime());
            try {
                KEYS.forEach(billing::bill);
            } finally {
                STARTED.remove();
            }
        }
    }
}
