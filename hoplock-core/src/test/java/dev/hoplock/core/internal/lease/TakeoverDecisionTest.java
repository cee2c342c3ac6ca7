package dev.hoplock.core.internal.lease;

import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.internal.lease.TakeoverDecision.Acquire;
import dev.hoplock.core.internal.lease.TakeoverDecision.Wait;
import dev.hoplock.core.internal.lease.TakeoverDecision.Why;
import dev.hoplock.core.record.LeaseRecord;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/** Rule 4 and rule 6 of the elector's safety argument as a pure function, on its own: no elector, no clock. */
class TakeoverDecisionTest {

    private static final Duration TTL = Duration.ofSeconds(30);
    private static final Duration POLL = Duration.ofSeconds(2);
    private static final long SEC = 1_000_000_000L;
    private static final Instant WALL = Instant.parse("2026-12-01T10:00:00Z");
    private static final Handle V1 = Handle.of("\"v1\"");

    private static LeaseRecord heldBy(String owner, long generation, Instant expiresAt) {
        return new LeaseRecord(generation, expiresAt, owner, "n");
    }

    private static TakeoverDecision.Outcome decide(Observation seen, long highest, long nowNanos, Instant wallNow) {
        return TakeoverDecision.decide(seen, highest, nowNanos, wallNow, TTL, POLL);
    }

    @Test
    void unchangedForCountsAWholeObservationFromTheFirstSighting() {
        Observation.Present seen = new Observation.Present(V1, heldBy("a", 4, WALL.plusSeconds(3600)), 100 * SEC);
        assertThat(TakeoverDecision.unchangedFor(seen, 100 * SEC + TTL.toNanos() - 1, TTL)).isFalse();
        assertThat(TakeoverDecision.unchangedFor(seen, 100 * SEC + TTL.toNanos(), TTL)).isTrue();
        // decide() uses the same test, and adds the wall-clock half: a record expiring an hour ahead is not taken.
        assertThat(decide(seen, 4, 100 * SEC + TTL.toNanos(), WALL)).isEqualTo(new Wait(POLL));
    }

    /** Rule ids: L3. The observation lasts the longer of the TTL and the validity shown at first sight. */
    @Test
    void theObservationLastsTheLongerOfTheTtlAndTheValidityFirstSeen() {
        assertThat(TakeoverDecision.observationFor(TTL, TTL.toNanos() + 1)).isEqualTo(TTL.plusNanos(1));
        assertThat(TakeoverDecision.observationFor(TTL, TTL.toNanos() - 1)).isEqualTo(TTL);
        assertThat(TakeoverDecision.observationFor(TTL, 0)).as("an expired or released record").isEqualTo(TTL);
    }

    @Test
    void anExpiredRecordIsTakenOnlyAfterATtlOfUnchangedObservation() {
        Observation seen = new Observation.Present(V1, heldBy("a", 4, WALL.minusSeconds(1)), 100 * SEC);
        assertThat(decide(seen, 4, 100 * SEC, WALL)).isEqualTo(new Wait(POLL));
        assertThat(decide(seen, 4, 100 * SEC + TTL.toNanos() - 1, WALL))
                .as("the wait ends when the observation is long enough, not a poll later, after a twentieth of a poll")
                .isEqualTo(new Wait(POLL.dividedBy(20)));
        assertThat(decide(seen, 4, 100 * SEC + TTL.toNanos() - SEC / 2, WALL)).isEqualTo(new Wait(Duration.ofMillis(500)));
        assertThat(decide(seen, 4, 100 * SEC + TTL.toNanos(), WALL))
                .isEqualTo(new Acquire(V1, 5, Why.EXPIRED_AND_UNCHANGED));
    }

    @Test
    void aRecordUnchangedForATtlIsNotTakenWhileItsExpiryIsAheadOfTheWallClock() {
        // The holder's clock runs ahead, or its TTL is longer: wait, whatever the local observation says.
        Observation seen = new Observation.Present(V1, heldBy("a", 4, WALL.plusSeconds(1)), 0);
        assertThat(decide(seen, 4, 10 * TTL.toNanos(), WALL)).as("until the record's expiry, within the poll")
                .isEqualTo(new Wait(Duration.ofSeconds(1)));
        assertThat(decide(seen, 4, 10 * TTL.toNanos(), WALL.minusSeconds(5))).isEqualTo(new Wait(POLL));
        assertThat(decide(seen, 4, 10 * TTL.toNanos(), WALL.plusSeconds(1)))
                .isEqualTo(new Acquire(V1, 5, Why.EXPIRED_AND_UNCHANGED));
    }

    @Test
    void aReleasedRecordIsTakenAtOnceAboveEveryGenerationSeen() {
        Observation seen = new Observation.Present(V1, LeaseRecord.released(7, "n"), 50 * SEC);
        assertThat(decide(seen, 9, 50 * SEC, WALL)).isEqualTo(new Acquire(V1, 10, Why.RELEASED));
    }

    @Test
    void aCorruptRecordIsTakenAfterATtlAndTheWaitEndsWhenTheTtlDoes() {
        Observation seen = new Observation.Present(V1, null, 0);
        assertThat(decide(seen, 0, TTL.toNanos() - SEC / 2, WALL)).isEqualTo(new Wait(Duration.ofMillis(500)));
        assertThat(decide(seen, 0, 0, WALL)).isEqualTo(new Wait(POLL));
        assertThat(decide(seen, 0, TTL.toNanos(), WALL)).isEqualTo(new Acquire(V1, 1, Why.CORRUPT_AND_UNCHANGED));
    }

    @Test
    void noRecordIsTakenAtTheLargestGeneration() {
        Observation released = new Observation.Present(V1, LeaseRecord.released(Long.MAX_VALUE, "n"), 0);
        assertThat(decide(released, Long.MAX_VALUE, TTL.toNanos(), WALL)).isEqualTo(new Wait(POLL));
        assertThat(decide(Observation.Absent.unwatched(), Long.MAX_VALUE, 0, WALL)).isEqualTo(new Wait(POLL));
        assertThat(TakeoverDecision.nextGeneration(Long.MAX_VALUE)).isZero();
        assertThat(TakeoverDecision.nextGeneration(Long.MAX_VALUE - 1)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void aKeyNeverSeenPresentIsCreatedAtOnce() {
        assertThat(decide(Observation.Absent.unwatched(), 0, 0, WALL)).isEqualTo(new Acquire(Handle.NONE, 1, Why.ABSENT));
    }

    @Test
    void aDisappearedKeyIsCreatedOnlyAfterATtlOfAbsenceAndAfterTheLastSeenExpiry() {
        Instant lastExpiry = WALL.plusSeconds(40);
        Observation gone = new Observation.Absent(true, 100 * SEC, TTL.toNanos(), lastExpiry);
        // 29 s of absence: wait, at most a poll.
        assertThat(decide(gone, 3, 129 * SEC, WALL.plusSeconds(29))).isEqualTo(new Wait(POLL));
        // A TTL of absence, but the last seen expiry is still 10 s ahead by the wall clock.
        assertThat(decide(gone, 3, 130 * SEC, WALL.plusSeconds(30))).isEqualTo(new Wait(POLL));
        assertThat(TakeoverDecision.untilFree((Observation.Absent) gone, 130 * SEC, WALL.plusSeconds(30)))
                .isEqualTo(Duration.ofSeconds(10));
        // The wait shrinks below a poll when the end is near.
        assertThat(decide(gone, 3, 130 * SEC, WALL.plusSeconds(39).plusMillis(700)))
                .isEqualTo(new Wait(Duration.ofMillis(300)));
        assertThat(decide(gone, 3, 130 * SEC, lastExpiry)).isEqualTo(new Acquire(Handle.NONE, 4, Why.ABSENT));
    }

    @Test
    void anAbsenceIsObservedForTheLongerOfTheTtlAndTheValidityTheLastRecordShowed() {
        // A holder with a 60 s TTL may have renewed unseen just before the delete.
        Observation gone = new Observation.Absent(true, 0, Duration.ofSeconds(60).toNanos(), null);
        assertThat(decide(gone, 1, 40 * SEC, WALL)).isEqualTo(new Wait(POLL));
        assertThat(decide(gone, 1, 59 * SEC, WALL)).isEqualTo(new Wait(Duration.ofSeconds(1)));
        assertThat(decide(gone, 1, 60 * SEC, WALL)).isEqualTo(new Acquire(Handle.NONE, 2, Why.ABSENT));
    }

    @Test
    void theSameInputsGiveTheSameAnswer() {
        Observation seen = new Observation.Present(V1, heldBy("a", 1, WALL), 0);
        assertThat(decide(seen, 1, TTL.toNanos(), WALL.plusMillis(1)))
                .isEqualTo(decide(seen, 1, TTL.toNanos(), WALL.plusMillis(1)));
    }
}
