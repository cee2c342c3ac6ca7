package dev.hoplock.core.operations;

import dev.hoplock.core.record.LeaseRecord;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;

import static dev.hoplock.core.operations.ReleaseFixture.KEY;
import static dev.hoplock.core.operations.ReleaseFixture.TTL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link LeaseInspection} on real stores: every state, the expiry by this machine's clock, the skew warning. */
class LeaseInspectionTest {

    @TempDir
    Path dir;

    static String[] stores() {
        return ReleaseFixture.stores();
    }

    private LeaseRecordView read(ReleaseFixture f, String key) throws Exception {
        return new LeaseInspection(f.store, f.time, Duration.ofSeconds(1)).read(key, TTL);
    }

    @ParameterizedTest
    @MethodSource("stores")
    void shows_holder_generation_and_expiry_by_this_machines_clock(String kind) throws Exception {
        ReleaseFixture f = new ReleaseFixture(kind, dir);
        assertThat(read(f, KEY).state()).isEqualTo(LeaseRecordView.State.ABSENT);
        assertThat(read(f, KEY).describe()).isEqualTo(KEY + ": no record (nobody holds it)");

        f.put(new LeaseRecord(7, f.time.wallNow().plusSeconds(12), "node-1", "n"));
        LeaseRecordView held = read(f, KEY);
        assertThat(held.state()).isEqualTo(LeaseRecordView.State.HELD);
        assertThat(held.holder()).isEqualTo("node-1");
        assertThat(held.generation()).isEqualTo(7);
        assertThat(held.expiresIn()).isEqualTo(Duration.ofSeconds(12));
        assertThat(held.handle()).isEqualTo(f.store.read(KEY, Duration.ofSeconds(1)).orElseThrow().handle().value());
        assertThat(held.clockSkewSuspected()).isFalse();
        assertThat(held.describe()).isEqualTo(KEY + ": held by node-1 at generation 7, expires_at "
                + "2026-12-03T08:00:12Z (in 12s by this machine's clock)");

        f.time.advance(Duration.ofSeconds(20));
        LeaseRecordView expired = read(f, KEY);
        assertThat(expired.state()).isEqualTo(LeaseRecordView.State.EXPIRED);
        assertThat(expired.expiryText()).isEqualTo("expired 8s ago by this machine's clock");

        f.put(new LeaseRecord(8, f.time.wallNow().plus(TTL.multipliedBy(2)).plusSeconds(1), "node-2", "n"));
        LeaseRecordView ahead = read(f, KEY);
        assertThat(ahead.clockSkewSuspected()).isTrue();
        assertThat(ahead.expiryText()).contains("1m1s").contains("the writer's clock may run ahead");

        f.put(LeaseRecord.released(8, "n"));
        assertThat(read(f, KEY).state()).isEqualTo(LeaseRecordView.State.RELEASED);
        assertThat(read(f, KEY).holder()).isEmpty();
        assertThat(read(f, KEY).expiresIn()).isNull();
    }

    @ParameterizedTest
    @MethodSource("stores")
    void a_corrupt_record_names_the_key_and_what_is_wrong(String kind) throws Exception {
        ReleaseFixture f = new ReleaseFixture(kind, dir);
        f.put("not json".getBytes(StandardCharsets.UTF_8));
        LeaseRecordView view = read(f, KEY);
        assertThat(view.state()).isEqualTo(LeaseRecordView.State.CORRUPT);
        assertThat(view.problem()).startsWith("the object under '" + KEY + "' is not a lease record (not a JSON object)");
        assertThat(view.handle()).isNotNull();
        assertThat(view.describe()).isEqualTo(KEY + ": " + view.problem());
    }

    @org.junit.jupiter.api.Test
    void a_registry_key_says_it_is_never_released_by_hand() {
        assertThat(LeaseInspection.corruptText("orders/registry", "not a JSON object"))
                .contains("ownership group's registry").contains("M6");
    }

    @org.junit.jupiter.api.Test
    void an_invalid_key_is_refused_before_any_read() {
        ReleaseFixture f = new ReleaseFixture("memory", dir);
        assertThatThrownBy(() -> read(f, "../etc")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is invalid");
    }
}
