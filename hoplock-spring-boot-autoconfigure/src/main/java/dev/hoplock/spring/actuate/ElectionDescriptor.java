package dev.hoplock.spring.actuate;

import dev.hoplock.core.time.HumanDurations;
import dev.hoplock.core.election.Elector;
import dev.hoplock.core.election.ElectorSettings;
import dev.hoplock.core.election.ElectorStatus;
import dev.hoplock.core.backend.StoreCapabilities;
import dev.hoplock.spring.leader.Candidacy;
import org.jspecify.annotations.Nullable;

/**
 * The state of one election as the {@code hoplock} endpoint shows it. Contains no secrets: the backend appears as
 * its description (for example {@code s3://bucket/prefix}), never with credentials.
 *
 * @param election           the election's name
 * @param key                the lease key
 * @param owner              this instance's owner id
 * @param role               new, leader, follower or stopped
 * @param leader             whether this instance leads now
 * @param generation         the generation of the lease held, else of the holder last seen; null when unknown
 * @param holder             the owner of the holder last seen; null when free or unknown
 * @param holderExpiresAt    the expiry the holder wrote; null when free or unknown
 * @param timeLeft           time until this leader's self-fencing deadline; null when not leading
 * @param backend            the store's description
 * @param sinceStoreAnswered time since the store last answered; null if it never has
 * @param lastError          the last store error, until the store answers again; null when none
 * @param verification       where the store's verification stands: verifying, verified or refused (the elector
 *                           campaigns only once verified)
 * @param capabilities       what the store's verification found (for example "create VERIFIED, swap VERIFIED, delete
 *                           NOT_SUPPORTED, handles bare"); null before it answered
 * @param verificationProblem why the store is refused, or the last failure while verifying; null when none
 * @param campaigning        whether this application campaigns now ({@code hoplock.campaign-when})
 * @param notCampaigningBecause why it does not (not ready yet, or refusing traffic); null while it campaigns
 * @param ttl                the lease duration
 * @param renew              the renew interval
 * @param poll               the poll interval
 */
public record ElectionDescriptor(
        String election,
        String key,
        String owner,
        String role,
        boolean leader,
        @Nullable Long generation,
        @Nullable String holder,
        @Nullable String holderExpiresAt,
        @Nullable String timeLeft,
        String backend,
        @Nullable String sinceStoreAnswered,
        @Nullable String lastError,
        String verification,
        @Nullable String capabilities,
        @Nullable String verificationProblem,
        boolean campaigning,
        @Nullable String notCampaigningBecause,
        String ttl,
        String renew,
        String poll) {

    static ElectionDescriptor of(String name, Elector elector, Candidacy candidacy) {
        ElectorStatus status = elector.status();
        ElectorSettings settings = elector.settings();
        Long generation = status.lease().map(lease -> (Long) lease.generation())
                .orElse(status.holder().map(holder -> (Long) holder.generation()).orElse(null));
        return new ElectionDescriptor(
                name,
                status.key(),
                status.owner(),
                status.role().name().toLowerCase(java.util.Locale.ROOT),
                status.isLeader(),
                generation,
                status.holder().map(holder -> holder.owner()).orElse(null),
                status.holder().map(holder -> holder.expiresAt().toString()).orElse(null),
                status.isLeader() ? HumanDurations.format(status.timeLeft()) : null,
                status.backend(),
                status.sinceStoreAnswered().map(HumanDurations::format).orElse(null),
                status.lastError().orElse(null),
                status.verification().name().toLowerCase(java.util.Locale.ROOT),
                status.capabilities().map(StoreCapabilities::summary).orElse(null),
                status.verificationProblem().orElse(null),
                candidacy.isCandidate(),
                candidacy.withdrawnBecause().orElse(null),
                HumanDurations.format(settings.ttl()),
                HumanDurations.format(settings.renewInterval()),
                HumanDurations.format(settings.pollInterval()));
    }
}
