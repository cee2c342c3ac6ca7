package dev.hoplock.samples.ownershipdemo;

import dev.hoplock.spring.leader.LeaderContextHolder;
import dev.hoplock.spring.leader.LeaderOnly;
import org.springframework.stereotype.Component;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The per-tenant work: runs only on the tenant's owner, with the tenant's fencing token. */
@Component
public class TenantWork {

    private final Map<String, Long> lastToken = new ConcurrentHashMap<>();

    /** Processes one tenant; on an instance that does not own it, the call is skipped and returns null. */
    @LeaderOnly(key = "#tenant")
    public Long process(String tenant) {
        long token = LeaderContextHolder.currentLease().orElseThrow().generation();
        lastToken.put(tenant, token);
        return token;
    }
}
