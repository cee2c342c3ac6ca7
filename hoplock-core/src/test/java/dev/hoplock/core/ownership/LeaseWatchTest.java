package dev.hoplock.core.ownership;

import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.record.LeaseRecord;
import dev.hoplock.core.record.LeaseRecordCodec;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** Rule M6: a member's term is judged ended only on evidence this machine observed itself. */
class LeaseWatchTest {

    private static final long TTL = 30_000_000_000L;
    private static final Instant NOW = Instant.parse("2026-12-01T00:00:00Z");
    private final Registry.Entry entry = new Registry.Entry("b", "", "b#1", 4, 1, 30_000);

    private static Optional<StoredObject> record(String owner, long generation, Instant expires, String handle) {
        byte[] bytes = LeaseRecordCodec.encode(new LeaseRecord(generation, expires, owner, "n" + handle));
        return Optional.of(new StoredObject(bytes, Handle.of(handle)));
    }

    @Test
    void anExpiredRecordCountsOnlyAfterATtlOfLocalObservation() {
        LeaseWatch watch = new LeaseWatch(entry, TTL);
        Optional<StoredObject> stale = record("b#1", 4, NOW.minusSeconds(3600), "h1");
        assertThat(watch.observe(stale, 0, NOW, 0)).as("expired by the wall clock, but just seen").isFalse();
        assertThat(watch.observe(stale, TTL - 1, NOW, TTL - 1)).isFalse();
        assertThat(watch.observe(stale, TTL, NOW, TTL)).isTrue();
    }

    @Test
    void aLateAnswerCountsFromWhenItsReadWasSent() {
        LeaseWatch watch = new LeaseWatch(entry, TTL);
        Optional<StoredObject> stale = record("b#1", 4, NOW.minusSeconds(3600), "h1");
        assertThat(watch.observe(stale, 0, NOW, 0)).isFalse();
        assertThat(watch.observe(stale, 1, NOW, 5 * TTL)).as("sent just after the first, answered after a pause")
                .isFalse();
    }

    @Test
    void aRenewedRecordRestartsTheObservationAndAnUnexpiredOneNeverCounts() {
        LeaseWatch watch = new LeaseWatch(entry, TTL);
        assertThat(watch.observe(record("b#1", 4, NOW.minusSeconds(1), "h1"), 0, NOW, 0)).isFalse();
        assertThat(watch.observe(record("b#1", 4, NOW.minusSeconds(1), "h2"), TTL, NOW, TTL)).isFalse();
        assertThat(watch.observe(record("b#1", 4, NOW.plusSeconds(3600), "h3"), 2 * TTL, NOW, 2 * TTL)).isFalse();
        assertThat(watch.observe(record("b#1", 4, NOW.plusSeconds(3600), "h3"), 9 * TTL, NOW, 9 * TTL))
                .as("unchanged for long, but not expired by this clock").isFalse();
    }

    @Test
    void aReleasedOrTakenOverRecordCountsAtOnce() {
        assertThat(new LeaseWatch(entry, TTL).observe(Optional.of(new StoredObject(
                LeaseRecordCodec.encode(LeaseRecord.released(4, "n")), Handle.of("h9"))), 0, NOW, 0)).isTrue();
        assertThat(new LeaseWatch(entry, TTL).observe(record("b#2", 5, NOW.plusSeconds(30), "h3"), 0, NOW, 0))
                .isTrue();
    }

    @Test
    void anAbsenceCountsAfterATtlWithoutAFailedReadBetween() {
        LeaseWatch watch = new LeaseWatch(entry, TTL);
        assertThat(watch.observe(Optional.empty(), 0, NOW, 0)).isFalse();
        watch.readFailed();
        assertThat(watch.observe(Optional.empty(), TTL, NOW, TTL)).as("a failed read restarts it").isFalse();
        assertThat(watch.observe(Optional.empty(), 2 * TTL, NOW, 2 * TTL)).isTrue();
    }
}
