package dev.hoplock.spring.actuate;

import dev.hoplock.core.election.Elector;
import dev.hoplock.spring.leader.HoplockElections;
import dev.hoplock.spring.leader.StoreWriteWatch;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

/**
 * The health of one election on this instance, as Spring Boot 3's {@link HealthIndicator}: the status and details of
 * {@link ElectionHealthCheck}, which says what each status means.
 */
public final class ElectionHealthIndicator implements HealthIndicator {

    private final ElectionHealthCheck check;

    /**
     * @param writes            the write watch; null when there is none
     * @param downOnStoreOutage whether a store outage is DOWN (else UNKNOWN)
     */
    public ElectionHealthIndicator(String name, Elector elector, HoplockElections elections,
            @Nullable StoreWriteWatch writes, boolean downOnStoreOutage) {
        this.check = new ElectionHealthCheck(name, elector, elections, writes, downOnStoreOutage);
    }

    @Override
    public Health health() {
        ElectionHealthCheck.Assessment assessment = check.assess();
        return Health.status(assessment.status().name()).withDetails(assessment.details()).build();
    }
}
