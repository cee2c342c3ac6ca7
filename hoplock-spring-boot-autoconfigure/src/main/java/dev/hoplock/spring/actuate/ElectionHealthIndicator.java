package dev.hoplock.spring.actuate;

import dev.hoplock.core.time.HumanDurations;
import dev.hoplock.core.Elector;
import dev.hoplock.core.ElectorStatus;
import dev.hoplock.core.Role;
import dev.hoplock.core.StoreVerification;
import dev.hoplock.spring.HoplockElections;
import dev.hoplock.spring.StoreWriteWatch;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

import java.time.Duration;
import java.util.Optional;

/**
 * The health of one election on this instance.
 *
 * <ul>
 *   <li><b>UP</b>: leader or follower, the store answered within the last TTL, and writes get answers.</li>
 *   <li><b>DOWN</b>: the store answers reads but every write and delete has failed for longer than one TTL (no
 *       instance can lead: a directory without write permission, a bucket policy without {@code s3:PutObject}); or
 *       the store's verification refused it ({@link StoreVerification#REFUSED}: it lacks a conditional request the
 *       elector needs, as the S3 conditional-write probe found; nothing is campaigned on it). Both are configuration
 *       errors that do not go away by waiting.</li>
 *   <li><b>Store outage</b>: the store has not answered for longer than one TTL (or not at all, more than one TTL
 *       after the elector started), or its verification could not ask it for longer than one TTL after the start. <b>UNKNOWN</b> by
 *       default, so that the application's aggregate health stays UP (HTTP 200): every instance sees the same
 *       outage, and a load balancer would otherwise drop the whole fleet. <b>DOWN</b> with
 *       {@code hoplock.health.down-on-store-outage=true}.</li>
 *   <li><b>UNKNOWN</b>: starting (the elector verifies the store or waits for its first answer, for less than a TTL),
 *       or not started because the application is not ready yet ({@code hoplock.campaign-when=ready}).</li>
 *   <li><b>OUT_OF_SERVICE</b>: the elector is stopped (shutdown).</li>
 * </ul>
 * Details: election, key, role, owner, backend (its description, never credentials), holder, generation, expiresAt
 * (the holder's), timeLeft (leader only), sinceStoreAnswered, lastError, failingWrites and lastWriteError (while
 * writes fail, the latest failure within a TTL), verification (verifying, verified or refused), capabilities (what the
 * store's verification found), reason, campaigning (false while this application does not campaign: not ready, or
 * refusing traffic) and notCampaigningBecause. All read from {@link ElectorStatus}. Computing it reads local state only.
 */
public final class ElectionHealthIndicator implements HealthIndicator {

    private final String name;
    private final Elector elector;
    private final HoplockElections elections;
    private final @Nullable StoreWriteWatch writes;
    private final boolean downOnStoreOutage;

    /**
     * @param writes            the write watch; null when there is none
     * @param downOnStoreOutage whether a store outage is DOWN (else UNKNOWN)
     */
    public ElectionHealthIndicator(String name, Elector elector, HoplockElections elections,
            @Nullable StoreWriteWatch writes, boolean downOnStoreOutage) {
        this.name = name;
        this.elector = elector;
        this.elections = elections;
        this.writes = writes;
        this.downOnStoreOutage = downOnStoreOutage;
    }

    @Override
    public Health health() {
        ElectorStatus status = elector.status();
        Duration ttl = elector.settings().ttl();
        Optional<StoreWriteWatch.Streak> failingWrites = writes == null ? Optional.empty() : writes.failing(name);
        Health.Builder health = decide(status, ttl, failingWrites);
        health.withDetail("election", name)
                .withDetail("key", status.key())
                .withDetail("role", status.role().name().toLowerCase(java.util.Locale.ROOT))
                .withDetail("owner", status.owner())
                .withDetail("backend", status.backend())
                .withDetail("campaigning", elections.candidacy().isCandidate());
        elections.candidacy().withdrawnBecause().ifPresent(why -> health.withDetail("notCampaigningBecause", why));
        status.holder().ifPresentOrElse(holder -> health
                        .withDetail("holder", holder.owner())
                        .withDetail("generation", holder.generation())
                        .withDetail("expiresAt", holder.expiresAt().toString()),
                () -> health.withDetail("holder", "none"));
        if (status.isLeader()) {
            health.withDetail("timeLeft", HumanDurations.format(status.timeLeft()));
        }
        status.sinceStoreAnswered().ifPresent(since -> health.withDetail("sinceStoreAnswered",
                HumanDurations.format(since)));
        status.lastError().ifPresent(error -> health.withDetail("lastError", error));
        health.withDetail("verification", status.verification().name().toLowerCase(java.util.Locale.ROOT));
        status.capabilities().ifPresent(capabilities -> health.withDetail("capabilities", capabilities.summary()));
        failingWrites.filter(streak -> streak.sinceLastFailure().compareTo(ttl) <= 0)
                .ifPresent(streak -> health.withDetail("failingWrites", streak.attempts())
                        .withDetail("lastWriteError", streak.lastError()));
        return health.build();
    }

    private Health.Builder decide(ElectorStatus status, Duration ttl, Optional<StoreWriteWatch.Streak> failingWrites) {
        if (status.verification() == StoreVerification.REFUSED) {
            return Health.down().withDetail("reason", "the store refused the conditional-write probe, so it could let"
                    + " two leaders coexist; no election runs on it: " + status.verificationProblem().orElse(""));
        }
        if (status.role() == Role.STOPPED) {
            return Health.outOfService().withDetail("reason", "stopped");
        }
        if (status.role() == Role.NEW) {
            return Health.unknown().withDetail("reason", elections.candidacy().withdrawnBecause()
                    .map(why -> "not campaigning: " + why).orElse("starting"));
        }
        if (status.verification() == StoreVerification.VERIFYING) {
            Duration sinceStart = elections.sinceStarted(name).orElse(Duration.ZERO);
            if (sinceStart.compareTo(ttl) > 0) {
                return outage("the store could not be checked for " + HumanDurations.format(sinceStart)
                        + ", longer than the TTL (" + HumanDurations.format(ttl) + ")"
                        + status.verificationProblem().map(m -> ": " + m).orElse(""));
            }
            return Health.unknown().withDetail("reason", "starting");
        }
        Optional<Duration> sinceAnswer = status.sinceStoreAnswered();
        if (sinceAnswer.isPresent()) {
            if (sinceAnswer.get().compareTo(ttl) > 0) {
                return outage("the store has not answered for " + HumanDurations.format(sinceAnswer.get())
                        + ", longer than the TTL (" + HumanDurations.format(ttl) + ")");
            }
            if (failingWrites.isPresent() && writesKeepFailing(failingWrites.get(), ttl)) {
                StoreWriteWatch.Streak streak = failingWrites.get();
                return Health.down().withDetail("reason", "the store answers reads but every write has failed for "
                        + HumanDurations.format(streak.failingFor()) + " (" + streak.attempts() + " in a row), longer"
                        + " than the TTL (" + HumanDurations.format(ttl) + "), so no instance can lead: "
                        + streak.lastError());
            }
            return Health.up();
        }
        Duration sinceStart = elections.sinceStarted(name).orElse(Duration.ZERO);
        if (sinceStart.compareTo(ttl) > 0) {
            return outage("the store has not answered since the start, " + HumanDurations.format(sinceStart)
                    + " ago, longer than the TTL (" + HumanDurations.format(ttl) + ")");
        }
        return Health.unknown().withDetail("reason", "waiting for the store's first answer");
    }

    /** Failing for longer than a TTL, and still failing recently (not one old failure of a follower). */
    private static boolean writesKeepFailing(StoreWriteWatch.Streak streak, Duration ttl) {
        return streak.failingFor().compareTo(ttl) > 0 && streak.sinceLastFailure().compareTo(ttl) <= 0;
    }

    /** A store outage: DOWN only when {@code hoplock.health.down-on-store-outage=true}. */
    private Health.Builder outage(String reason) {
        if (downOnStoreOutage) {
            return Health.down().withDetail("reason", reason);
        }
        return Health.unknown().withDetail("reason", reason + "; reported as UNKNOWN, not DOWN, so that the"
                + " application's health stays UP (hoplock.health.down-on-store-outage=false)");
    }
}
