package dev.hoplock.elasticsearch;

import dev.hoplock.core.json.Json;
import dev.hoplock.core.record.LeaseRecord;
import dev.hoplock.core.record.LeaseRecordCodec;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** The mapping of bytes to a document and back, without a cluster. */
class LeaseDocumentTest {

    private static final int[] CODE_POINTS = {0, 1, 0x1f, '"', '\\', '/', 0x7f, 0xe9, 0x65e5, 0x1f407};

    @Test
    void aRecordBecomesItsFieldsPlusItsExactText() {
        byte[] bytes = LeaseRecordCodec.encode(new LeaseRecord(9, Instant.parse("2026-01-02T03:04:05Z"), "n\"1", "x"));

        Map<String, Object> doc = Json.parseObject(new String(LeaseDocument.encode("a/b", bytes, "w-1"),
                StandardCharsets.UTF_8));

        assertThat(doc).containsExactly(Map.entry("key", "a/b"), Map.entry("generation", new Json.NumberLiteral("9")),
                Map.entry("expires_at", "2026-01-02T03:04:05Z"), Map.entry("owner", "n\"1"), Map.entry("nonce", "x"),
                Map.entry("record", new String(bytes, StandardCharsets.UTF_8)), Map.entry("write_id", "w-1"));
        assertThat(LeaseDocument.content(doc)).isEqualTo(bytes);
        assertThat(LeaseDocument.writeId(doc)).contains("w-1");
    }

    @Test
    void anExpiryBeyondYear9999IsLeftOutOfTheDateField() {
        byte[] bytes = "{\"generation\":1,\"expires_at\":\"+12026-01-02T03:04:05Z\"}".getBytes(StandardCharsets.UTF_8);

        Map<String, Object> doc = Json.parseObject(new String(LeaseDocument.encode("k", bytes, "w"),
                StandardCharsets.UTF_8));

        assertThat(doc).doesNotContainKey("expires_at");
        assertThat(LeaseDocument.content(doc)).isEqualTo(bytes);
    }

    @Test
    void anyBytesRoundTrip() {
        Random random = new Random(7);
        for (int i = 0; i < 200; i++) {
            byte[] bytes = new byte[random.nextInt(300)];
            random.nextBytes(bytes);
            if (i % 2 == 0) {
                // Text with every control character, quotes, backslashes and non-BMP characters.
                StringBuilder text = new StringBuilder();
                for (int c = 0; c < 40; c++) {
                    text.appendCodePoint(CODE_POINTS[random.nextInt(CODE_POINTS.length)]);
                }
                bytes = text.toString().getBytes(StandardCharsets.UTF_8);
            }
            Map<String, Object> doc = Json.parseObject(new String(LeaseDocument.encode("k", bytes,
                    SeqNoHandle.newWriteId()), StandardCharsets.UTF_8));
            assertThat(LeaseDocument.content(doc)).as("round %d", i).isEqualTo(bytes);
        }
    }

    @Test
    void aDocumentWithoutTheExactBytesReadsAsItsSource() {
        Map<String, Object> source = Json.parseObject("{\"generation\":3,\"owner\":\"ops\",\"tags\":[true,null,1.5]}");

        assertThat(new String(LeaseDocument.content(source), StandardCharsets.UTF_8))
                .isEqualTo("{\"generation\":3,\"owner\":\"ops\",\"tags\":[true,null,1.5]}");
    }

    @Test
    void aDocumentWithoutAWriteIdHasNoneAndAMalformedOneIsRefused() {
        assertThat(LeaseDocument.writeId(Json.parseObject("{\"generation\":3}"))).isEmpty();
        for (String malformed : new String[] {"{\"write_id\":7}", "{\"write_id\":\"\"}", "{\"write_id\":\"a b\"}"}) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> LeaseDocument.writeId(Json.parseObject(malformed)))
                    .as(malformed).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("write_id");
        }
    }

    @Test
    void everyWriteIdIsNewAndAHandleRoundTripsWithAndWithoutOne() {
        assertThat(SeqNoHandle.newWriteId()).hasSize(32).matches("[0-9a-f]{32}").isNotEqualTo(SeqNoHandle.newWriteId());
        SeqNoHandle withId = new SeqNoHandle(17, 2, SeqNoHandle.newWriteId());
        assertThat(SeqNoHandle.parse(withId.handle())).contains(withId);
        SeqNoHandle legacy = new SeqNoHandle(17, 2, null);
        assertThat(legacy.handle().value()).isEqualTo("17:2");
        assertThat(SeqNoHandle.parse(legacy.handle())).contains(legacy);
        assertThat(SeqNoHandle.parse(dev.hoplock.core.backend.Handle.of("etag-from-elsewhere"))).isEmpty();
    }
}
