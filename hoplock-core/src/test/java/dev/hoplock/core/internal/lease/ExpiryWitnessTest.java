package dev.hoplock.core.internal.lease;

import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.record.LeaseRecord;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/** Rule 4 for a witness: judged as of the later read's sending, and an absence is never a fresh start. */
class ExpiryWitnessTest {

    private static final Duration TTL = Duration.ofSeconds(30);
    private static final long T = TTL.toNanos();
    private static final Instant NOW = Instant.parse("2026-12-01T00:00:00Z");

    private static LeaseRecord held(Instant expires) {
        return new LeaseRecord(4, expires, "b#1", "n");
    }

    @Test
    void nothingIsProvedBeforeAnyRead() {
        assertThat(new ExpiryWitness(TTL).provesEndAsOf(10 * T, NOW)).isFalse();
    }

    @Test
    void anAbsenceNeverSeenPresentStillNeedsAWholeTtl() {
        ExpiryWitness witness = new ExpiryWitness(TTL);
        witness.sawAbsent(0);
        assertThat(witness.provesEndAsOf(0, NOW)).as("the elector would create at once; a witness may not").isFalse();
        witness.sawAbsent(T - 1);
        assertThat(witness.provesEndAsOf(T - 1, NOW)).isFalse();
        witness.sawAbsent(T);
        assertThat(witness.provesEndAsOf(T, NOW)).isTrue();
    }

    @Test
    void aFailedReadRestartsTheAbsenceAndProvesNothingByItself() {
        ExpiryWitness witness = new ExpiryWitness(TTL);
        witness.sawAbsent(0);
        witness.readFailed();
        assertThat(witness.provesEndAsOf(2 * T, NOW)).isFalse();
        witness.sawAbsent(2 * T);
        assertThat(witness.provesEndAsOf(2 * T, NOW)).isFalse();
        witness.sawAbsent(3 * T);
        assertThat(witness.provesEndAsOf(3 * T, NOW)).isTrue();
    }

    @Test
    void theSameVersionCountsUpToWhenTheLaterReadWasSentNotAnswered() {
        ExpiryWitness witness = new ExpiryWitness(TTL);
        witness.sawVersion(Handle.of("h1"), held(NOW.minusSeconds(60)), 0, NOW);
        witness.sawVersion(Handle.of("h1"), held(NOW.minusSeconds(60)), 5 * T, NOW);
        assertThat(witness.provesEndAsOf(1, NOW)).as("sent just after the first, answered after a pause").isFalse();
        assertThat(witness.provesEndAsOf(T, NOW)).isTrue();
    }

    @Test
    void anUnexpiredRecordIsNeverProvedEndedAndANewVersionRestarts() {
        ExpiryWitness witness = new ExpiryWitness(TTL);
        witness.sawVersion(Handle.of("h1"), held(NOW.plusSeconds(3600)), 0, NOW);
        assertThat(witness.provesEndAsOf(10 * T, NOW)).as("not expired by this clock").isFalse();
        witness.sawVersion(Handle.of("h2"), held(NOW.minusSeconds(1)), 10 * T, NOW);
        assertThat(witness.provesEndAsOf(11 * T - 1, NOW)).isFalse();
        assertThat(witness.provesEndAsOf(11 * T, NOW)).isTrue();
    }

    @Test
    void anAbsenceAfterALongerLivedRecordWaitsItsValidityAndExpiry() {
        ExpiryWitness witness = new ExpiryWitness(TTL);
        witness.sawVersion(Handle.of("h1"), held(NOW.plusSeconds(90)), 0, NOW);
        witness.sawAbsent(1);
        assertThat(witness.provesEndAsOf(T + 1, NOW.plusSeconds(91))).as("validity 90 s, not a 30 s TTL").isFalse();
        assertThat(witness.provesEndAsOf(Duration.ofSeconds(90).toNanos() + 1, NOW.plusSeconds(89)))
                .as("observed long enough, but not expired by this clock").isFalse();
        assertThat(witness.provesEndAsOf(Duration.ofSeconds(90).toNanos() + 1, NOW.plusSeconds(90))).isTrue();
    }

    @Test
    void aCorruptRecordNeedsTheTtlAlone() {
        ExpiryWitness witness = new ExpiryWitness(TTL);
        witness.sawVersion(Handle.of("h1"), null, 0, NOW);
        assertThat(witness.provesEndAsOf(T - 1, NOW)).isFalse();
        assertThat(witness.provesEndAsOf(T, NOW)).isTrue();
    }
}
