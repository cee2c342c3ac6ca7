package dev.hoplock.spring.actuate;

import dev.hoplock.core.time.HumanDurations;
import dev.hoplock.core.Elector;
import dev.hoplock.core.ElectorStatus;
import dev.hoplock.core.Role;
import dev.hoplock.spring.HoplockElections;
import dev.hoplock.spring.autoconfigure.StoreVerification;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

import java.time.Duration;
import java.util.Optional;

/**
 * The health of one election on this instance.
 *
 * <ul>
 *   <li><b>UP</b>: leader or follower, and the store answered within the last TTL.</li>
 *   <li><b>DOWN</b>: the store has not answered for longer than one TTL (or not at all, more than one TTL after the
 *       elector started); or the store refused the conditional-write probe (nothing is campaigned on it); or the
 *       probe could not reach the store for longer than one TTL.</li>
 *   <li><b>UNKNOWN</b>: starting (the elector waits for the probe or the store's first answer, for less than a
 *       TTL).</li>
 *   <li><b>OUT_OF_SERVICE</b>: the elector is stopped (shutdown).</li>
 * </ul>
 * Details: election, key, role, owner, backend (its description, never credentials), holder, generation, expiresAt
 * (the holder's), timeLeft (leader only), sinceStoreAnswered, lastError. Computing it reads local state only.
 */
public final class ElectionHealthIndicator implements HealthIndicator {

    private final String name;
    private final Elector elector;
    private final HoplockElections elections;
    private final StoreVerification verification;

    public ElectionHealthIndicator(String name, Elector elector, HoplockElections elections,
            StoreVerification verification) {
        this.name = name;
        this.elector = elector;
        this.elections = elections;
        this.verification = verification;
    }

    @Override
    public Health health() {
        ElectorStatus status = elector.status();
        Duration ttl = elector.settings().ttl();
        Health.Builder health = decide(status, ttl);
        health.withDetail("election", name)
                .withDetail("key", status.key())
                .withDetail("role", status.role().name().toLowerCase(java.util.Locale.ROOT))
                .withDetail("owner", status.owner())
                .withDetail("backend", status.backend());
        status.holder().ifPresentOrElse(holder -> health
                        .withDetail("holder", holder.owner())
                        .withDetail("generation", holder.generation())
                        .withDetail("expiresAt", holder.expiresAt().toString()),
                () -> health.withDetail("holder", "none"));
        if (status.isLeader()) {
            health.withDetail("timeLeft", HumanDurations.format(status.timeLeft()));
        }
        status.sinceStoreAnswered().ifPresent(since -> health.withDetail("sinceStoreAnswered", HumanDurations.format(since)));
        status.lastError().ifPresent(error -> health.withDetail("lastError", error));
        return health.build();
    }

    private Health.Builder decide(ElectorStatus status, Duration ttl) {
        StoreVerification.Snapshot check = verification == null ? null : verification.snapshot();
        if (check != null && check.state() == StoreVerification.State.REFUSED) {
            return Health.down().withDetail("reason", "the store refused the conditional-write probe, so it could let"
                    + " two leaders coexist; no election runs on it: " + check.message().orElse(""));
        }
        if (status.role() == Role.STOPPED) {
            return Health.outOfService().withDetail("reason", "stopped");
        }
        if (status.role() == Role.NEW) {
            if (check != null && check.state() == StoreVerification.State.PENDING && check.age().compareTo(ttl) > 0) {
                return Health.down().withDetail("reason", "the store could not be checked for "
                        + HumanDurations.format(check.age()) + ", longer than the TTL (" + HumanDurations.format(ttl) + ")"
                        + check.message().map(m -> ": " + m).orElse(""));
            }
            return Health.unknown().withDetail("reason", "starting");
        }
        Optional<Duration> sinceAnswer = status.sinceStoreAnswered();
        if (sinceAnswer.isPresent()) {
            if (sinceAnswer.get().compareTo(ttl) > 0) {
                return Health.down().withDetail("reason", "the store has not answered for "
                        + HumanDurations.format(sinceAnswer.get()) + ", longer than the TTL (" + HumanDurations.format(ttl) + ")");
            }
            return Health.up();
        }
        Duration sinceStart = elections.sinceStarted(name).orElse(Duration.ZERO);
        if (sinceStart.compareTo(ttl) > 0) {
            return Health.down().withDetail("reason", "the store has not answered since the start, "
                    + HumanDurations.format(sinceStart) + " ago, longer than the TTL (" + HumanDurations.format(ttl) + ")");
        }
        return Health.unknown().withDetail("reason", "waiting for the store's first answer");
    }
}
