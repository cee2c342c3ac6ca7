package dev.hoplock.spring.leader;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.core.record.LeaseRecord;
import dev.hoplock.core.record.LeaseRecordCodec;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The candidacy rule: while withdrawn, the guarded store refuses every claim (a lease record that is not a release)
 * without sending it, and passes releases; as a candidate it passes everything.
 */
class CandidacyTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(1);

    private final InMemoryBackend store = new InMemoryBackend();

    @Test
    void aWithdrawnCandidacyRefusesClaimsWithoutSendingThemAndPassesReleases() throws Exception {
        Candidacy candidacy = Candidacy.withdrawn("not ready");
        Backend guarded = candidacy.guard(store);
        assertThat(candidacy.isCandidate()).isFalse();
        assertThat(candidacy.withdrawnBecause()).contains("not ready");

        assertThat(guarded.write("lease", Handle.NONE, claim(1), TIMEOUT))
                .isEqualTo(WriteResult.preconditionFailed());
        assertThat(store.read("lease", TIMEOUT)).as("the refused claim was never sent").isEmpty();

        byte[] release = LeaseRecordCodec.encode(LeaseRecord.released(1, "n-release"));
        assertThat(guarded.write("lease", Handle.NONE, release, TIMEOUT)).isInstanceOf(WriteResult.Written.class);
        assertThat(store.read("lease", TIMEOUT)).as("a release passes").isPresent();
    }

    @Test
    void aCandidateWritesClaimsAndWithdrawingOrEnteringTakesEffectAtTheNextWrite() throws Exception {
        Candidacy candidacy = Candidacy.candidate();
        Backend guarded = candidacy.guard(store);
        WriteResult first = guarded.write("lease", Handle.NONE, claim(1), TIMEOUT);
        assertThat(first).isInstanceOf(WriteResult.Written.class);
        Handle handle = ((WriteResult.Written) first).handle();

        candidacy.withdraw(Candidacy.Source.READINESS, "refusing traffic");
        assertThat(guarded.write("lease", handle, claim(1), TIMEOUT)).as("a renewal is a claim too")
                .isEqualTo(WriteResult.preconditionFailed());
        assertThat(store.read("lease", TIMEOUT).orElseThrow().handle()).isEqualTo(handle);

        assertThat(candidacy.enter(Candidacy.Source.READINESS)).isTrue();
        assertThat(candidacy.withdrawnBecause()).isEmpty();
        assertThat(guarded.write("lease", handle, claim(2), TIMEOUT)).isInstanceOf(WriteResult.Written.class);
    }

    /** Review finding: a stop while refusing traffic, or readiness while stopped, must not bring the application back. */
    @Test
    void eachCauseOfAWithdrawalIsEnteredOnlyByItselfAndTheCandidacyComesBackWhenNoneIsLeft() throws Exception {
        Candidacy candidacy = Candidacy.withdrawn(Candidacy.Source.READINESS, "refusing traffic");
        candidacy.withdraw(Candidacy.Source.LIFECYCLE, "stopped");
        assertThat(candidacy.withdrawnBecause()).contains("refusing traffic; stopped");

        assertThat(candidacy.enter(Candidacy.Source.READINESS)).as("accepting traffic while stopped").isFalse();
        assertThat(candidacy.isCandidate()).isFalse();
        assertThat(candidacy.isWithdrawnBy(Candidacy.Source.LIFECYCLE)).isTrue();
        assertThat(candidacy.isWithdrawnBy(Candidacy.Source.READINESS)).isFalse();
        assertThat(candidacy.withdrawnBecause()).contains("stopped");
        assertThat(candidacy.guard(store).write("lease", Handle.NONE, claim(1), TIMEOUT))
                .isEqualTo(WriteResult.preconditionFailed());

        assertThat(candidacy.enter(Candidacy.Source.LIFECYCLE)).isTrue();
        assertThat(candidacy.isCandidate()).isTrue();
        assertThat(candidacy.withdrawnBecause()).isEmpty();
    }

    @Test
    void anUnreadableRecordCountsAsAClaim() throws Exception {
        Backend guarded = Candidacy.withdrawn("not ready").guard(store);
        assertThat(guarded.write("lease", Handle.NONE, new byte[] {'{'}, TIMEOUT))
                .isEqualTo(WriteResult.preconditionFailed());
        assertThat(guarded.describe()).isEqualTo(store.describe());
    }

    private static byte[] claim(long generation) {
        return LeaseRecordCodec.encode(new LeaseRecord(generation, Instant.now().plusSeconds(30), "me", "n-" + generation));
    }
}
