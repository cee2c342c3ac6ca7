package dev.hoplock.spring.actuate;

import dev.hoplock.core.election.Elector;
import dev.hoplock.core.election.ElectorStatus;
import dev.hoplock.core.election.Role;
import dev.hoplock.core.election.StoreVerification;
import dev.hoplock.core.time.HumanDurations;
import dev.hoplock.spring.leader.HoplockElections;
import dev.hoplock.spring.leader.StoreWriteWatch;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The health of one election on this instance, computed without Spring Boot types so that every Boot generation
 * reports the same statuses and details ({@code ElectionHealthIndicator} of each generation turns it into Boot's
 * {@code Health}).
 *
 * <ul>
 *   <li><b>UP</b>: leader or follower, the store answered within the last TTL, and writes get answers.</li>
 *   <li><b>DOWN</b>: the store answers reads but every write and delete has failed for longer than one TTL (no
 *       instance can lead: a directory without write permission, a bucket policy without {@code s3:PutObject}); or
 *       the store's verification refused it ({@link StoreVerification#REFUSED}: it lacks a conditional request the
 *       elector needs, as the S3 conditional-write probe found; nothing is campaigned on it). Both are configuration
 *       errors that do not go away by waiting.</li>
 *   <li><b>Store outage</b>: the store has not answered for longer than one TTL (or not at all, more than one TTL
 *       after the elector started), or its verification could not ask it for longer than one TTL after the start.
 *       <b>UNKNOWN</b> by default, so that the application's aggregate health stays UP (HTTP 200): every instance
 *       sees the same outage, and a load balancer would otherwise drop the whole fleet. <b>DOWN</b> with
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
public final class ElectionHealthCheck {

    /** A health status; the names are Spring Boot's status codes. */
    public enum Status { UP, DOWN, UNKNOWN, OUT_OF_SERVICE }

    /**
     * One assessment.
     *
     * @param status  the status
     * @param details the details, in the order they are shown (unmodifiable)
     */
    public record Assessment(Status status, Map<String, Object> details) {
    }

    private final String name;
    private final Elector elector;
    private final HoplockElections elections;
    private final @Nullable StoreWriteWatch writes;
    private final boolean downOnStoreOutage;

    /**
     * @param writes            the write watch; null when there is none
     * @param downOnStoreOutage whether a store outage is DOWN (else UNKNOWN)
     */
    public ElectionHealthCheck(String name, Elector elector, HoplockElections elections,
            @Nullable StoreWriteWatch writes, boolean downOnStoreOutage) {
        this.name = name;
        this.elector = elector;
        this.elections = elections;
        this.writes = writes;
        this.downOnStoreOutage = downOnStoreOutage;
    }

    /** Assesses the election now. */
    public Assessment assess() {
        ElectorStatus status = elector.status();
        Duration ttl = elector.settings().ttl();
        Optional<StoreWriteWatch.Streak> failingWrites = writes == null ? Optional.empty() : writes.failing(name);
        Map<String, Object> details = new LinkedHashMap<>();
        Status verdict = decide(status, ttl, failingWrites, details);
        details.put("election", name);
        details.put("key", status.key());
        details.put("role", status.role().name().toLowerCase(Locale.ROOT));
        details.put("owner", status.owner());
        details.put("backend", status.backend());
        details.put("campaigning", elections.candidacy().isCandidate());
        elections.candidacy().withdrawnBecause().ifPresent(why -> details.put("notCampaigningBecause", why));
        status.holder().ifPresentOrElse(holder -> {
            details.put("holder", holder.owner());
            details.put("generation", holder.generation());
            details.put("expiresAt", holder.expiresAt().toString());
        }, () -> details.put("holder", "none"));
        if (status.isLeader()) {
            details.put("timeLeft", HumanDurations.format(status.timeLeft()));
        }
        status.sinceStoreAnswered().ifPresent(since -> details.put("sinceStoreAnswered",
                HumanDurations.format(since)));
        status.lastError().ifPresent(error -> details.put("lastError", error));
        details.put("verification", status.verification().name().toLowerCase(Locale.ROOT));
        status.capabilities().ifPresent(capabilities -> details.put("capabilities", capabilities.summary()));
        failingWrites.filter(streak -> streak.sinceLastFailure().compareTo(ttl) <= 0)
                .ifPresent(streak -> {
                    details.put("failingWrites", streak.attempts());
                    details.put("lastWriteError", streak.lastError());
                });
        return new Assessment(verdict, Collections.unmodifiableMap(details));
    }

    private Status decide(ElectorStatus status, Duration ttl, Optional<StoreWriteWatch.Streak> failingWrites,
            Map<String, Object> details) {
        if (status.verification() == StoreVerification.REFUSED) {
            details.put("reason", "the store refused the conditional-write probe, so it could let"
                    + " two leaders coexist; no election runs on it: " + status.verificationProblem().orElse(""));
            return Status.DOWN;
        }
        if (status.role() == Role.STOPPED) {
            details.put("reason", "stopped");
            return Status.OUT_OF_SERVICE;
        }
        if (status.role() == Role.NEW) {
            details.put("reason", elections.candidacy().withdrawnBecause()
                    .map(why -> "not campaigning: " + why).orElse("starting"));
            return Status.UNKNOWN;
        }
        if (status.verification() == StoreVerification.VERIFYING) {
            Duration sinceStart = elections.sinceStarted(name).orElse(Duration.ZERO);
            if (sinceStart.compareTo(ttl) > 0) {
                return outage("the store could not be checked for " + HumanDurations.format(sinceStart)
                        + ", longer than the TTL (" + HumanDurations.format(ttl) + ")"
                        + status.verificationProblem().map(m -> ": " + m).orElse(""), details);
            }
            details.put("reason", "starting");
            return Status.UNKNOWN;
        }
        Optional<Duration> sinceAnswer = status.sinceStoreAnswered();
        if (sinceAnswer.isPresent()) {
            if (sinceAnswer.get().compareTo(ttl) > 0) {
                return outage("the store has not answered for " + HumanDurations.format(sinceAnswer.get())
                        + ", longer than the TTL (" + HumanDurations.format(ttl) + ")", details);
            }
            if (failingWrites.isPresent() && writesKeepFailing(failingWrites.get(), ttl)) {
                StoreWriteWatch.Streak streak = failingWrites.get();
                details.put("reason", "the store answers reads but every write has failed for "
                        + HumanDurations.format(streak.failingFor()) + " (" + streak.attempts() + " in a row), longer"
                        + " than the TTL (" + HumanDurations.format(ttl) + "), so no instance can lead: "
                        + streak.lastError());
                return Status.DOWN;
            }
            return Status.UP;
        }
        Duration sinceStart = elections.sinceStarted(name).orElse(Duration.ZERO);
        if (sinceStart.compareTo(ttl) > 0) {
            return outage("the store has not answered since the start, " + HumanDurations.format(sinceStart)
                    + " ago, longer than the TTL (" + HumanDurations.format(ttl) + ")", details);
        }
        details.put("reason", "waiting for the store's first answer");
        return Status.UNKNOWN;
    }

    /** Failing for longer than a TTL, and still failing recently (not one old failure of a follower). */
    private static boolean writesKeepFailing(StoreWriteWatch.Streak streak, Duration ttl) {
        return streak.failingFor().compareTo(ttl) > 0 && streak.sinceLastFailure().compareTo(ttl) <= 0;
    }

    /** A store outage: DOWN only when {@code hoplock.health.down-on-store-outage=true}. */
    private Status outage(String reason, Map<String, Object> details) {
        if (downOnStoreOutage) {
            details.put("reason", reason);
            return Status.DOWN;
        }
        details.put("reason", reason + "; reported as UNKNOWN, not DOWN, so that the"
                + " application's health stays UP (hoplock.health.down-on-store-outage=false)");
        return Status.UNKNOWN;
    }
}
