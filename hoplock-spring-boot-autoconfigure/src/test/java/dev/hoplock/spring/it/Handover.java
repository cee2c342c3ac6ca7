package dev.hoplock.spring.it;

import dev.hoplock.core.election.ElectionEvent;
import dev.hoplock.core.election.Elector;
import dev.hoplock.core.election.LossCause;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Watches a graceful handover from a closing leader to a follower, and proves it went through the release rather
 * than through expiry: the follower's term began before the old leader's last lease would have expired. Without a
 * release, a follower takes over a held record only once it has expired by its wall clock, so this holds however
 * slow the machine (its disk syncs, its scheduler) happens to be, where a bound on elapsed time would not.
 */
final class Handover {

    private final CompletableFuture<ElectionEvent.Lost> lost = new CompletableFuture<>();
    private final CompletableFuture<ElectionEvent.Acquired> acquired = new CompletableFuture<>();
    private final Elector follower;

    private Handover(Elector leader, Elector follower) {
        this.follower = follower;
        leader.addListener(event -> {
            if (event instanceof ElectionEvent.Lost loss) {
                lost.complete(loss);
            }
        });
        follower.addListener(event -> {
            if (event instanceof ElectionEvent.Acquired acquisition) {
                acquired.complete(acquisition);
            }
        });
    }

    /** Starts watching; call before closing the leader. */
    static Handover watch(Elector leader, Elector follower) {
        assertThat(leader.isLeader()).as("the leader leads when the watch starts").isTrue();
        return new Handover(leader, follower);
    }

    /** Waits (up to a few seconds) for the handover and checks it; returns the follower's acquisition. */
    ElectionEvent.Acquired assertReleasedAndTakenOverBeforeExpiry() throws Exception {
        return assertReleasedAndTakenOverBeforeExpiry(LossCause.STOPPED);
    }

    /** As {@link #assertReleasedAndTakenOverBeforeExpiry()}, for a leader that ended its term for {@code cause}. */
    ElectionEvent.Acquired assertReleasedAndTakenOverBeforeExpiry(LossCause cause) throws Exception {
        ElectionEvent.Lost loss = lost.get(5, TimeUnit.SECONDS);
        assertThat(loss.cause()).isEqualTo(cause);
        ElectionEvent.Acquired acquisition = acquired.get(5, TimeUnit.SECONDS);
        assertThat(acquisition.at()).as("the follower took over before the old lease (%s) expired, so through the"
                + " release; follower: %s", loss.lease(), follower.status()).isBefore(loss.lease().expiresAt());
        assertThat(acquisition.lease().generation()).isGreaterThan(loss.lease().generation());
        assertThat(Duration.between(loss.at(), acquisition.at())).as("handover time").isLessThan(Duration.ofSeconds(3));
        return acquisition;
    }
}
