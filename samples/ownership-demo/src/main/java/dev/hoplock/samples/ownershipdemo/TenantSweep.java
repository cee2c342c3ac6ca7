package dev.hoplock.samples.ownershipdemo;

import dev.hoplock.spring.ownership.HoplockOwnership;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;

/**
 * Every second, offers every tenant to {@link TenantWork#process}; only the owner's call runs. Logs the tenants this
 * instance processed whenever that set changes.
 */
@Component
public class TenantSweep {

    private static final Logger log = LoggerFactory.getLogger(TenantSweep.class);

    private final TenantWork work;
    private final HoplockOwnership ownership;
    private final List<String> tenants;
    private volatile Map<String, Long> processed = Map.of();

    public TenantSweep(TenantWork work, HoplockOwnership ownership, @Value("${demo.tenants:12}") int count) {
        this.work = work;
        this.ownership = ownership;
        this.tenants = IntStream.rangeClosed(1, count).mapToObj(i -> String.format("tenant-%02d", i)).toList();
    }

    /** The tenants every instance walks. */
    public List<String> tenants() {
        return tenants;
    }

    /** The tenants this instance processed in its last sweep, with their tokens. */
    public Map<String, Long> processed() {
        return processed;
    }

    @Scheduled(fixedDelay = 1000)
    public void sweep() {
        Map<String, Long> now = new TreeMap<>();
        for (String tenant : tenants) {
            Long token = work.process(tenant);
            if (token != null) {
                now.put(tenant, token);
            }
        }
        if (!now.keySet().equals(processed.keySet())) {
            log.info("{} processes {} of {} tenants: {}", ownership.self().id(), now.size(), tenants.size(),
                    now.keySet());
        }
        processed = now;
    }
}
