package dev.hoplock.core.operations;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.core.election.Elector;
import dev.hoplock.core.record.LeaseRecord;
import dev.hoplock.core.record.LeaseRecordCodec;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import static dev.hoplock.core.operations.ReleaseFixture.KEY;
import static dev.hoplock.core.operations.ReleaseFixture.POLL;
import static dev.hoplock.core.operations.ReleaseFixture.TTL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The operator's release of a stuck record ({@link StuckLeaseRelease}) against real stores (memory, a directory) and
 * real electors, in virtual time: it frees only a record observed unchanged for a whole TTL (the local half of E4), so
 * a live holder makes it refuse, and it writes only the released record at the same generation (E6), never a delete.
 */
class StuckLeaseReleaseTest {

    @TempDir
    Path dir;

    static String[] stores() {
        return ReleaseFixture.stores();
    }

    @ParameterizedTest
    @MethodSource("stores")
    void a_live_elector_makes_the_release_refuse_and_keeps_leading(String kind) throws Exception {
        ReleaseFixture f = new ReleaseFixture(kind, dir);
        try (Elector leader = f.elector("node-1")) {
            leader.start();
            f.advanceUntil(leader::isLeader, TTL);
            long generation = f.stored().generation();

            try (StuckLeaseRelease release = f.release().build()) {
                ReleaseReport report = f.advanceUntilDone(release.release(KEY), TTL.multipliedBy(3));

                assertThat(report.outcome()).isEqualTo(ReleaseReport.Outcome.REFUSED);
                assertThat(report.message()).contains("node-1 renewed it").contains("its holder is alive")
                        .contains("nothing was written");
                assertThat(report.observed()).isLessThan(TTL);
                assertThat(report.written()).isNull();
            }
            f.time.advance(TTL.multipliedBy(2));
            assertThat(leader.isLeader()).isTrue();
            assertThat(f.stored().owner()).isEqualTo("node-1");
            assertThat(f.stored().generation()).isEqualTo(generation);
        }
    }

    @ParameterizedTest
    @MethodSource("stores")
    void a_dead_holder_whose_clock_ran_ahead_is_released_after_one_ttl_and_a_waiting_elector_takes_over(String kind)
            throws Exception {
        ReleaseFixture f = new ReleaseFixture(kind, dir);
        // Written by a process now gone whose wall clock ran a day ahead: electors wait a day for it.
        f.put(new LeaseRecord(7, f.time.wallNow().plus(Duration.ofDays(1)), "gone-node", "n1"));
        try (Elector waiting = f.elector("node-2")) {
            waiting.start();
            f.time.advance(TTL.multipliedBy(3));
            assertThat(waiting.isLeader()).as("the elector waits for the far-ahead expiry by itself").isFalse();

            try (StuckLeaseRelease release = f.release().trustTtlOverExpiry(true).build()) {
                CompletableFuture<ReleaseReport> pending = release.release(KEY);
                f.time.advance(TTL.minus(POLL));
                assertThat(pending).as("still observing before one TTL").isNotDone();
                ReleaseReport report = f.advanceUntilDone(pending, TTL);

                assertThat(report.outcome()).isEqualTo(ReleaseReport.Outcome.RELEASED);
                assertThat(report.observed()).isGreaterThanOrEqualTo(TTL);
                assertThat(report.first().clockSkewSuspected()).isTrue();
                LeaseRecordView written = java.util.Objects.requireNonNull(report.written());
                assertThat(written.state()).isEqualTo(LeaseRecordView.State.RELEASED);
                assertThat(written.generation()).isEqualTo(7);
                assertThat(report.message()).contains("gone-node").contains("generation 7");
            }
            f.advanceUntil(waiting::isLeader, POLL.multipliedBy(2));
            assertThat(f.stored().owner()).isEqualTo("node-2");
            assertThat(f.stored().generation()).isEqualTo(8);
        }
    }

    @ParameterizedTest
    @MethodSource("stores")
    void a_takeover_while_observing_makes_it_refuse_and_names_the_new_holder(String kind) throws Exception {
        ReleaseFixture f = new ReleaseFixture(kind, dir);
        f.put(new LeaseRecord(6, f.time.wallNow().minusSeconds(1), "gone-node", "n1"));
        try (StuckLeaseRelease release = f.release().build()) {
            CompletableFuture<ReleaseReport> pending = release.release(KEY);
            f.time.advance(Duration.ofSeconds(5));
            f.put(new LeaseRecord(7, f.time.wallNow().plus(TTL), "other-node", "n2"));
            ReleaseReport report = f.advanceUntilDone(pending, TTL);

            assertThat(report.outcome()).isEqualTo(ReleaseReport.Outcome.REFUSED);
            assertThat(report.message()).contains("other-node holds it now at generation 7");
            assertThat(report.last().holder()).isEqualTo("other-node");
        }
        assertThat(f.stored().owner()).isEqualTo("other-node");
    }

    @ParameterizedTest
    @MethodSource("stores")
    void a_far_ahead_expiry_is_refused_unless_the_ttl_is_trusted(String kind) throws Exception {
        ReleaseFixture f = new ReleaseFixture(kind, dir);
        f.put(new LeaseRecord(3, f.time.wallNow().plus(Duration.ofHours(2)), "long-lock", "n1"));
        byte[] before = f.store.read(KEY, Duration.ofSeconds(1)).orElseThrow().content();
        try (StuckLeaseRelease release = f.release().build()) {
            ReleaseReport report = f.advanceUntilDone(release.release(KEY), TTL);

            assertThat(report.outcome()).isEqualTo(ReleaseReport.Outcome.REFUSED);
            assertThat(report.message()).contains("2h ahead").contains("--trust-ttl").contains("nothing written");
        }
        assertThat(f.store.read(KEY, Duration.ofSeconds(1)).orElseThrow().content()).isEqualTo(before);
    }

    @ParameterizedTest
    @MethodSource("stores")
    void a_far_ahead_expiry_under_a_default_ttl_is_refused_without_suggesting_to_trust_it(String kind)
            throws Exception {
        ReleaseFixture f = new ReleaseFixture(kind, dir);
        f.put(new LeaseRecord(3, f.time.wallNow().plus(Duration.ofHours(23)), "long-lock", "n1"));
        try (StuckLeaseRelease release = f.release().ttlGivenExplicitly(false).build()) {
            ReleaseReport report = f.advanceUntilDone(release.release(KEY), TTL);

            assertThat(report.outcome()).isEqualTo(ReleaseReport.Outcome.REFUSED);
            assertThat(report.message()).contains("is a default").contains("--ttl").doesNotContain("--trust-ttl")
                    .doesNotContain("trusting");
        }
        assertThat(f.stored().owner()).isEqualTo("long-lock");
    }

    @ParameterizedTest
    @MethodSource("stores")
    void trusting_a_default_ttl_over_the_expiry_is_refused_at_build(String kind) {
        ReleaseFixture f = new ReleaseFixture(kind, dir);
        assertThatThrownBy(() -> f.release().ttlGivenExplicitly(false).trustTtlOverExpiry(true).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs a TTL given explicitly");
    }

    @ParameterizedTest
    @MethodSource("stores")
    void a_crashed_holder_is_observed_for_the_validity_its_record_showed_when_longer_than_the_ttl(String kind)
            throws Exception {
        ReleaseFixture f = new ReleaseFixture(kind, dir);
        // A named lock taken for 50 s (longer than the 30 s TTL given, under 2 x TTL) by a holder that never renews.
        f.put(new LeaseRecord(4, f.time.wallNow().plus(Duration.ofSeconds(50)), "lock-holder", "n1"));
        try (StuckLeaseRelease release = f.release().build()) {
            CompletableFuture<ReleaseReport> pending = release.release(KEY);
            f.time.advance(Duration.ofSeconds(45));
            assertThat(pending).as("the holder may still work until its own expiry").isNotDone();
            ReleaseReport report = f.advanceUntilDone(pending, TTL);

            assertThat(report.outcome()).isEqualTo(ReleaseReport.Outcome.RELEASED);
            assertThat(report.observed()).isGreaterThanOrEqualTo(Duration.ofSeconds(50));
        }
        LeaseRecord stored = f.stored();
        assertThat(stored.isReleased()).isTrue();
        assertThat(stored.generation()).isEqualTo(4);
    }

    @ParameterizedTest
    @MethodSource("stores")
    void a_record_changed_between_the_last_read_and_the_write_makes_the_store_refuse_it(String kind)
            throws Exception {
        ReleaseFixture f = new ReleaseFixture(kind, dir);
        f.put(new LeaseRecord(5, f.time.wallNow().plus(TTL), "slow-node", "n1"));
        RenewsBeforeTheWrite interleaving = new RenewsBeforeTheWrite(f.store, f);
        try (StuckLeaseRelease release = StuckLeaseRelease.builder(interleaving).ttl(TTL).pollInterval(POLL)
                .timeSource(f.time).scheduler(f.time).build()) {
            ReleaseReport report = f.advanceUntilDone(release.release(KEY), TTL.multipliedBy(2));

            assertThat(report.outcome()).isEqualTo(ReleaseReport.Outcome.WRITE_REFUSED);
            assertThat(report.message()).contains("refused the conditional write").contains("nothing was written")
                    .contains("slow-node");
            assertThat(report.written()).isNull();
        }
        LeaseRecord stored = f.stored();
        assertThat(stored.owner()).isEqualTo("slow-node");
        assertThat(stored.nonce()).isEqualTo("renewed");
        assertThat(interleaving.deletes).isZero();
    }

    @ParameterizedTest
    @MethodSource("stores")
    void a_corrupt_record_is_refused_with_the_key_and_what_is_wrong(String kind) throws Exception {
        ReleaseFixture f = new ReleaseFixture(kind, dir);
        f.put("{\"generation\":\"7\"}".getBytes(StandardCharsets.UTF_8));
        try (StuckLeaseRelease release = f.release().build()) {
            ReleaseReport report = f.advanceUntilDone(release.release(KEY), TTL);

            assertThat(report.outcome()).isEqualTo(ReleaseReport.Outcome.REFUSED);
            assertThat(report.first().state()).isEqualTo(LeaseRecordView.State.CORRUPT);
            assertThat(report.message()).contains("'" + KEY + "'").contains("generation must be a JSON integer")
                    .contains("never released by hand");
        }
        assertThat(new String(f.store.read(KEY, Duration.ofSeconds(1)).orElseThrow().content(),
                StandardCharsets.UTF_8)).isEqualTo("{\"generation\":\"7\"}");
    }

    @ParameterizedTest
    @MethodSource("stores")
    void an_absent_or_released_key_has_nothing_to_release(String kind) throws Exception {
        ReleaseFixture f = new ReleaseFixture(kind, dir);
        try (StuckLeaseRelease release = f.release().build()) {
            ReleaseReport absent = f.advanceUntilDone(release.release(KEY), TTL);
            assertThat(absent.outcome()).isEqualTo(ReleaseReport.Outcome.NOTHING_TO_RELEASE);
            assertThat(f.store.read(KEY, Duration.ofSeconds(1))).isEmpty();

            f.put(LeaseRecord.released(9, "n"));
            ReleaseReport released = f.advanceUntilDone(release.release(KEY), TTL);
            assertThat(released.outcome()).isEqualTo(ReleaseReport.Outcome.NOTHING_TO_RELEASE);
            assertThat(released.message()).contains("already released at generation 9");
        }
    }

    @ParameterizedTest
    @MethodSource("stores")
    void a_store_that_does_not_honour_conditional_swaps_gets_no_write(String kind) throws Exception {
        ReleaseFixture f = new ReleaseFixture(kind, dir);
        f.put(new LeaseRecord(2, f.time.wallNow().minusSeconds(5), "gone-node", "n1"));
        Backend blind = new RenewsBeforeTheWrite(f.store, f) {
            @Override
            public dev.hoplock.core.backend.StoreCapabilities verify() {
                return dev.hoplock.core.backend.StoreCapabilities.builder("blind").set(
                        dev.hoplock.core.backend.StoreCapabilities.Capability.CONDITIONAL_SWAP,
                        dev.hoplock.core.backend.StoreCapabilities.Support.NOT_SUPPORTED, "If-Match ignored").build();
            }

            @Override
            public WriteResult write(String key, Handle expected, byte[] content, Duration timeout) {
                throw new AssertionError("no write may reach a store that ignores conditions");
            }
        };
        try (StuckLeaseRelease release = StuckLeaseRelease.builder(blind).ttl(TTL).pollInterval(POLL)
                .timeSource(f.time).scheduler(f.time).build()) {
            ReleaseReport report = f.advanceUntilDone(release.release(KEY), TTL.multipliedBy(2));
            assertThat(report.outcome()).isEqualTo(ReleaseReport.Outcome.REFUSED);
            assertThat(report.message()).contains("nothing written").contains("conditional swap");
        }
        assertThat(f.stored().owner()).isEqualTo("gone-node");
    }

    @org.junit.jupiter.api.Test
    void the_ttl_is_required_and_keys_are_validated() {
        ReleaseFixture f = new ReleaseFixture("memory", dir);
        assertThatThrownBy(() -> StuckLeaseRelease.builder(f.store).build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("longest TTL any holder");
        try (StuckLeaseRelease release = f.release().build()) {
            assertThatThrownBy(() -> release.release("a//b")).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @ParameterizedTest
    @MethodSource("stores")
    void a_write_that_landed_before_the_store_client_retried_it_is_reported_released(String kind) throws Exception {
        ReleaseFixture f = new ReleaseFixture(kind, dir);
        f.put(new LeaseRecord(5, f.time.wallNow().plus(TTL), "crashed-node", "n1"));
        LandsThenRefused retrying = new LandsThenRefused(f.store);
        try (StuckLeaseRelease release = StuckLeaseRelease.builder(retrying).ttl(TTL).pollInterval(POLL)
                .timeSource(f.time).scheduler(f.time).build()) {
            ReleaseReport report = f.advanceUntilDone(release.release(KEY), TTL.multipliedBy(3));

            assertThat(report.outcome()).isEqualTo(ReleaseReport.Outcome.RELEASED);
            assertThat(report.message()).contains("landed on an earlier attempt").doesNotContain("nothing was written");
            assertThat(report.written()).isNotNull();
        }
        LeaseRecord stored = f.stored();
        assertThat(stored.isReleased()).isTrue();
        assertThat(stored.generation()).isEqualTo(5);
        assertThat(retrying.writes).isEqualTo(1);
    }

    @ParameterizedTest
    @MethodSource("stores")
    void a_record_at_the_highest_generation_is_refused_because_no_one_could_take_it_over(String kind)
            throws Exception {
        ReleaseFixture f = new ReleaseFixture(kind, dir);
        f.put(new LeaseRecord(Long.MAX_VALUE, f.time.wallNow().plus(TTL), "crashed-node", "n1"));
        try (StuckLeaseRelease release = f.release().build()) {
            ReleaseReport report = f.advanceUntilDone(release.release(KEY), TTL.multipliedBy(3));

            assertThat(report.outcome()).isEqualTo(ReleaseReport.Outcome.REFUSED);
            assertThat(report.message()).contains("nothing written").contains("can ever take this key over")
                    .contains("Stop every process that uses this key").contains("delete the record by hand");
            assertThat(report.written()).isNull();
        }
        LeaseRecord stored = f.stored();
        assertThat(stored.owner()).isEqualTo("crashed-node");
        assertThat(stored.generation()).isEqualTo(Long.MAX_VALUE);
    }

    /**
     * A real store whose client retries a write inside one call, as the S3 and Azure SDKs do on a 5xx: the first
     * attempt lands, its answer is lost, and the retry meets the new version and is refused.
     */
    private static class LandsThenRefused implements Backend {
        private final Backend store;
        int writes;

        LandsThenRefused(Backend store) {
            this.store = store;
        }

        @Override
        public Optional<StoredObject> read(String key, Duration timeout) throws BackendException {
            return store.read(key, timeout);
        }

        @Override
        public WriteResult write(String key, Handle expected, byte[] content, Duration timeout)
                throws BackendException {
            writes++;
            assertThat(store.write(key, expected, content, timeout)).isInstanceOf(WriteResult.Written.class);
            return store.write(key, expected, content, timeout);
        }

        @Override
        public DeleteResult delete(String key, Handle expected, Duration timeout) throws BackendException {
            return store.delete(key, expected, timeout);
        }
    }

    /**
     * A real store in which the holder renews its record (same owner and generation, a new nonce) just before the
     * release's write reaches the store: the write then expects a version that is gone.
     */
    private static class RenewsBeforeTheWrite implements Backend {
        private final Backend store;
        private final ReleaseFixture f;
        int deletes;

        RenewsBeforeTheWrite(Backend store, ReleaseFixture f) {
            this.store = store;
            this.f = f;
        }

        @Override
        public Optional<StoredObject> read(String key, Duration timeout) throws BackendException {
            return store.read(key, timeout);
        }

        @Override
        public WriteResult write(String key, Handle expected, byte[] content, Duration timeout)
                throws BackendException {
            LeaseRecord renewal = new LeaseRecord(5, f.time.wallNow().plus(TTL), "slow-node", "renewed");
            assertThat(store.write(key, expected, LeaseRecordCodec.encode(renewal), timeout))
                    .isInstanceOf(WriteResult.Written.class);
            return store.write(key, expected, content, timeout);
        }

        @Override
        public DeleteResult delete(String key, Handle expected, Duration timeout) throws BackendException {
            deletes++;
            return store.delete(key, expected, timeout);
        }
    }
}
