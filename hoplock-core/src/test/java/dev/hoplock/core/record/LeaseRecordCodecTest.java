package dev.hoplock.core.record;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LeaseRecordCodecTest {

    private static LeaseRecord decode(String json) throws MalformedLeaseRecordException {
        return LeaseRecordCodec.decode(json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void keysMatchInAnyCaseAndTheLastInTheTextWins() throws Exception {
        assertThat(decode("{\"generation\":1,\"Generation\":2,\"generation\":3,\"OWNER\":\"a\"}"))
                .extracting(LeaseRecord::generation, LeaseRecord::owner).containsExactly(3L, "a");
        assertThat(decode("{\"generation\":3,\"GENERATION\":2}").generation()).isEqualTo(2);
    }

    @Test
    void anIntegerWithAnExponentIsNoGeneration() {
        assertThatThrownBy(() -> decode("{\"generation\":1e0}")).hasMessageContaining("the number 1e0");
    }

    @Test
    void readsWhatGoWritesInItsLocalZoneWithNanoseconds() throws Exception {
        LeaseRecord record = decode("{\"generation\":7,\"expires_at\":\"2026-09-08T16:13:20.123456789+02:00\",\"owner\":\"node-1\"}");
        assertThat(record.generation()).isEqualTo(7);
        assertThat(record.expiresAt()).isEqualTo(Instant.parse("2026-09-08T14:13:20.123456789Z"));
        assertThat(record.owner()).isEqualTo("node-1");
        assertThat(record.nonce()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"2026-09-08T20:37:00Z", "2026-09-08T20:37:00.1Z", "2026-09-08T20:37:00.123456Z",
            "2026-09-08T22:37:00+02:00", "2026-09-08T15:07:00-05:30", "2026-09-08t20:37:00z"})
    void readsEveryFractionLengthAndOffset(String time) throws Exception {
        LeaseRecord record = decode("{\"generation\":1,\"expires_at\":\"" + time + "\",\"owner\":\"a\"}");
        assertThat(record.expiresAt()).isBetween(Instant.parse("2026-09-08T20:37:00Z"), Instant.parse("2026-09-08T20:37:01Z"));
    }

    /**
     * Go writes any zone offset its time zone database has, as {@code ±hh:mm} with hours 00 to 23 (Go's RFC 3339
     * parser accepts the same range), while Java's {@code ZoneOffset} stops at ±18:00.
     */
    @ParameterizedTest
    @CsvSource({
            "2026-09-09T20:36:00+23:59, 2026-09-08T20:37:00Z",
            "2026-09-07T20:38:00-23:59, 2026-09-08T20:37:00Z",
            "2026-09-09T14:37:00+18:00, 2026-09-08T20:37:00Z",
            "2026-09-09T14:38:00+18:01, 2026-09-08T20:37:00Z",
            "2026-09-09T15:37:00+19:00, 2026-09-08T20:37:00Z",
            "2026-09-08T00:07:00.5-20:30, 2026-09-08T20:37:00.5Z",
            "2026-09-08T20:37:00-00:00, 2026-09-08T20:37:00Z",
            "0001-01-01T00:00:00Z, 0001-01-01T00:00:00Z"})
    void readsEveryZoneOffsetGoCanWrite(String written, String instant) throws Exception {
        assertThat(LeaseRecordCodec.parseTime(written)).isEqualTo(Instant.parse(instant));
    }

    @ParameterizedTest
    @ValueSource(strings = {"2026-09-08T20:37:00+24:00", "2026-09-08T20:37:00-24:00", "2026-09-08T20:37:00+12:60",
            "2026-09-08T20:37:00+5:00", "2026-09-08T20:37:00+0500", "2026-09-08T20:37:00+05", "2026-09-08T20:37:00+05:00:00",
            "2026-09-08T20:37:00 05:00", "2026-09-08T20:37:00", "2026-09-08T20:37:00+ab:cd", "2026-09-08T24:00:00Z",
            "2026-02-30T20:37:00Z", "+05:00", "Z", ""})
    void refusesOffsetsAndTimesGoWouldRefuse(String written) {
        assertThatThrownBy(() -> LeaseRecordCodec.parseTime(written)).isInstanceOf(MalformedLeaseRecordException.class)
                .hasMessageContaining("RFC 3339");
    }

    @Test
    void omittedOwnerReadsAsEmptyAndUnknownFieldsAreIgnored() throws Exception {
        LeaseRecord record = decode("{\"Generation\":3,\"EXPIRES_AT\":\"2026-09-08T20:37:00Z\","
                + "\"extra\":{\"nested\":[1,2,{\"x\":null}]},\"flag\":true,\"n\":-1.5e3}");
        assertThat(record.generation()).isEqualTo(3);
        assertThat(record.owner()).isEmpty();
    }

    @Test
    void goZeroTimeIsExpiredAndAReleasedRecordIsRecognised() throws Exception {
        LeaseRecord record = decode("{\"generation\":4,\"expires_at\":\"0001-01-01T00:00:00Z\"}");
        assertThat(record.isExpiredAt(Instant.parse("2000-01-01T00:00:00Z"))).isTrue();
        assertThat(record.isReleased()).isTrue();
        assertThat(decode("{}")).isEqualTo(new LeaseRecord(0, LeaseRecord.ZERO_TIME, "", ""));
    }

    @Test
    void writesTheGoFormatAndReadsItBack() throws Exception {
        LeaseRecord record = new LeaseRecord(9, Instant.parse("2026-09-08T20:37:00Z"), "host:1:ab\"c", "00ff");
        String json = new String(LeaseRecordCodec.encode(record), StandardCharsets.UTF_8);
        assertThat(json).isEqualTo("{\"generation\":9,\"expires_at\":\"2026-09-08T20:37:00Z\",\"owner\":\"host:1:ab\\\"c\","
                + "\"nonce\":\"00ff\"}");
        assertThat(LeaseRecordCodec.decode(json.getBytes(StandardCharsets.UTF_8))).isEqualTo(record);
    }

    @Test
    void releasedRecordOmitsOwnerAndKeepsGeneration() throws Exception {
        String json = new String(LeaseRecordCodec.encode(LeaseRecord.released(5, "aa")), StandardCharsets.UTF_8);
        assertThat(json).isEqualTo("{\"generation\":5,\"expires_at\":\"0001-01-01T00:00:00Z\",\"nonce\":\"aa\"}");
    }

    @Test
    void nanosecondsSurviveTheRoundTrip() throws Exception {
        LeaseRecord record = new LeaseRecord(1, Instant.parse("2026-09-08T20:37:00.000000001Z"), "a", "");
        assertThat(LeaseRecordCodec.decode(LeaseRecordCodec.encode(record))).isEqualTo(record);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "{\"generation\":1.0,\"expires_at\":\"2026-09-08T20:37:00Z\"}",
            "{\"generation\":\"1\",\"expires_at\":\"2026-09-08T20:37:00Z\"}",
            "{\"generation\":-2,\"expires_at\":\"2026-09-08T20:37:00Z\"}",
            "{\"generation\":99999999999999999999,\"expires_at\":\"2026-09-08T20:37:00Z\"}",
            "{\"generation\":1,\"expires_at\":\"2026-09-08T20:37Z\"}",
            "{\"generation\":1,\"expires_at\":1757363820}",
            "{\"generation\":1,\"expires_at\":\"2026-09-08 20:37:00Z\"}",
            "{\"generation\":1,\"owner\":7}",
            "{\"generation\":1,",
            "[1,2]",
            "not json",
            "{\"generation\":1} trailing",
            ""})
    void refusesWhatGoWouldRefuseOrWhatIsNotARecord(String json) {
        assertThatThrownBy(() -> decode(json)).isInstanceOf(MalformedLeaseRecordException.class)
                .hasMessageNotContaining("Exception");
    }

    @Test
    void errorMessagesSayWhatIsWrong() {
        assertThatThrownBy(() -> decode("{\"generation\":\"1\"}")).hasMessageContaining("generation must be a JSON integer");
        assertThatThrownBy(() -> decode("{\"expires_at\":\"2026-09-08T20:37Z\"}")).hasMessageContaining("RFC 3339 time with seconds");
        assertThatThrownBy(() -> decode("{\"generation\":-1}")).hasMessageContaining("negative");
    }

    @Test
    void refusesObjectsAboveTheSizeLimitAndInvalidUtf8() {
        byte[] big = new byte[LeaseRecordCodec.MAX_SIZE + 1];
        assertThatThrownBy(() -> LeaseRecordCodec.decode(big)).hasMessageContaining("larger than the limit of " + LeaseRecordCodec.MAX_SIZE);
        assertThatThrownBy(() -> LeaseRecordCodec.decode(new byte[] {'{', (byte) 0xC3, '}'})).hasMessageContaining("UTF-8");
    }

    @Test
    void everyEncodingOfTheSameStateDiffersByNonce() {
        Instant at = Instant.parse("2026-09-08T20:37:00Z");
        assertThat(LeaseRecordCodec.encode(new LeaseRecord(1, at, "a", "n1")))
                .isNotEqualTo(LeaseRecordCodec.encode(new LeaseRecord(1, at, "a", "n2")));
    }
}
