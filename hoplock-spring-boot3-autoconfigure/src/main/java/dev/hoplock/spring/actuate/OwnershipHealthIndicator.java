package dev.hoplock.spring.actuate;

import dev.hoplock.spring.ownership.HoplockOwnership;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

/**
 * The health of this instance's membership in the ownership group, as Spring Boot 3's {@link HealthIndicator}: the
 * status and details of {@link OwnershipHealthCheck}, which says what each status means.
 */
public final class OwnershipHealthIndicator implements HealthIndicator {

    private final OwnershipHealthCheck check;

    public OwnershipHealthIndicator(HoplockOwnership ownership) {
        this.check = new OwnershipHealthCheck(ownership);
    }

    @Override
    public Health health() {
        ElectionHealthCheck.Assessment assessment = check.assess();
        return Health.status(assessment.status().name()).withDetails(assessment.details()).build();
    }
}
