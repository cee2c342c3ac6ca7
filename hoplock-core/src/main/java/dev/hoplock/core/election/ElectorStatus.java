package dev.hoplock.core.election;

import dev.hoplock.core.Holder;
import dev.hoplock.core.Lease;
import dev.hoplock.core.backend.StoreCapabilities;

import java.time.Duration;
import java.util.Optional;

/**
 * A consistent snapshot of an elector's state for health checks and dashboards. Contains no secrets.
 *
 * @param key                 the lease key
 * @param owner               this process's owner id
 * @param backend             the store's description ({@link dev.hoplock.core.backend.Backend#describe()})
 * @param role                leader, follower, ...
 * @param lease               the lease held, when leader
 * @param timeLeft            time until the self-fencing deadline, zero when not leader
 * @param holder              the holder last seen in the store
 * @param sinceStoreAnswered  time since the store last answered (any answer, refusals included); empty if it never
 *                            has
 * @param lastError           the last backend error's message, until the store answers again
 * @param verification        where the store's verification stands; the elector campaigns only when
 *                            {@link StoreVerification#VERIFIED}
 * @param capabilities        what the store's verification answered; empty before it answered
 * @param verificationProblem why the store is {@link StoreVerification#REFUSED}, or the last failure while
 *                            {@link StoreVerification#VERIFYING}; empty when verified
 */
public record ElectorStatus(
        String key,
        String owner,
        String backend,
        Role role,
        Optional<Lease> lease,
        Duration timeLeft,
        Optional<Holder> holder,
        Optional<Duration> sinceStoreAnswered,
        Optional<String> lastError,
        StoreVerification verification,
        Optional<StoreCapabilities> capabilities,
        Optional<String> verificationProblem) {

    /** True when this process may run leader work at the time of the snapshot. */
    public boolean isLeader() {
        return role == Role.LEADER;
    }
}
