package dev.hoplock.elasticsearch;

import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.core.json.Json;
import dev.hoplock.core.record.LeaseRecord;
import dev.hoplock.core.record.LeaseRecordCodec;
import dev.hoplock.elasticsearch.node.OpenSearchExtension;
import dev.hoplock.elasticsearch.node.OpenSearchNode;
import dev.hoplock.elasticsearch.node.RawHttp;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;

import static dev.hoplock.elasticsearch.TestSearch.TIMEOUT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** What the backend stores in the index and how it reads it back, looked at with plain requests to the node. */
@ExtendWith(OpenSearchExtension.class)
class ElasticsearchBackendTest {

    private static ElasticsearchBackend backend;
    private static RawHttp raw;
    private static String index;

    @BeforeAll
    static void setUp(OpenSearchNode node) throws Exception {
        index = TestSearch.uniqueIndex("backend");
        backend = TestSearch.backend(node, index);
        raw = new RawHttp(node);
    }

    @AfterAll
    static void tearDown() {
        backend.close();
    }

    @Test
    void aLeaseRecordIsADocumentWithTheRecordsFieldsAndItsExactBytes() throws Exception {
        String key = newKey("elections/billing");
        LeaseRecord record = new LeaseRecord(7, Instant.parse("2026-09-08T20:37:00.123456789Z"), "node-1", "n-1");
        byte[] bytes = LeaseRecordCodec.encode(record);

        Handle handle = written(backend.write(key, Handle.NONE, bytes, TIMEOUT));

        Map<String, Object> doc = Json.parseObject(raw.get("/" + index + "/_doc/" + key.replace("/", "%2F")).body());
        assertThat(doc.get("_id")).as("the document id is the lease key").isEqualTo(key);
        assertThat(handle.value()).isEqualTo(doc.get("_seq_no") + ":" + doc.get("_primary_term"));
        assertThat(source(doc)).containsEntry("key", key)
                .containsEntry("generation", new Json.NumberLiteral("7"))
                .containsEntry("expires_at", "2026-09-08T20:37:00.123456789Z")
                .containsEntry("owner", "node-1")
                .containsEntry("nonce", "n-1")
                .containsEntry("record", new String(bytes, StandardCharsets.UTF_8))
                .doesNotContainKey("record_base64");

        raw.send("POST", "/" + index + "/_refresh", null);
        String hits = raw.send("POST", "/" + index + "/_search",
                "{\"query\":{\"bool\":{\"filter\":[{\"term\":{\"owner\":\"node-1\"}},{\"term\":{\"key\":\"" + key
                        + "\"}},{\"range\":{\"expires_at\":{\"gt\":\"2026-09-08T20:00:00Z\"}}}]}}}").body();
        assertThat(hits).as("searchable by owner, key and expiry, as in Dashboards").contains("\"value\":1");
    }

    @Test
    void aReleasedRecordAtGosZeroTimeIsStored() throws Exception {
        String key = newKey("released");
        byte[] bytes = LeaseRecordCodec.encode(LeaseRecord.released(3, "n-2"));

        written(backend.write(key, Handle.NONE, bytes, TIMEOUT));

        assertThat(read(key).content()).isEqualTo(bytes);
        assertThat(source(key)).containsEntry("expires_at", "0001-01-01T00:00:00Z").doesNotContainKey("owner");
    }

    @Test
    void bytesThatAreNoLeaseRecordAreKeptExactlyWithoutTheRecordsFields() throws Exception {
        String text = newKey("text");
        String corrupt = newKey("corrupt");
        String binary = newKey("binary");
        byte[] invalidUtf8 = {'{', (byte) 0xC3, (byte) 0x28, '}', 0};

        written(backend.write(text, Handle.NONE, "not json".getBytes(StandardCharsets.UTF_8), TIMEOUT));
        written(backend.write(corrupt, Handle.NONE,
                "{\"generation\":\"seven\",\"owner\":1}".getBytes(StandardCharsets.UTF_8), TIMEOUT));
        written(backend.write(binary, Handle.NONE, invalidUtf8, TIMEOUT));

        assertThat(source(text)).containsOnlyKeys("key", "record").containsEntry("record", "not json");
        assertThat(source(corrupt)).containsOnlyKeys("key", "record");
        assertThat(source(binary)).containsOnlyKeys("key", "record_base64");
        assertThat(read(binary).content()).isEqualTo(invalidUtf8);
        assertThat(read(corrupt).content()).asString(StandardCharsets.UTF_8)
                .isEqualTo("{\"generation\":\"seven\",\"owner\":1}");
    }

    @Test
    void aDocumentWrittenByHandReadsAsItsSource() throws Exception {
        String key = newKey("by-hand");
        assertThat(raw.put("/" + index + "/_doc/" + key.replace("/", "%2F"),
                "{\"generation\":3,\"expires_at\":\"2026-09-08T16:13:20.5+02:00\",\"owner\":\"ops\"}").status())
                .isEqualTo(201);

        LeaseRecord record = LeaseRecordCodec.decode(read(key).content());

        assertThat(record.generation()).isEqualTo(3);
        assertThat(record.expiresAt()).isEqualTo(Instant.parse("2026-09-08T14:13:20.5Z"));
        assertThat(record.owner()).isEqualTo("ops");
    }

    @Test
    void aHandleThatIsNoSequenceNumberMatchesNoVersion() throws Exception {
        String key = newKey("foreign-handle");
        Handle foreign = Handle.of("\"d41d8cd98f00b204e9800998ecf8427e\"");

        assertThat(backend.write(key, foreign, bytes("x"), TIMEOUT)).isEqualTo(new WriteResult.Refused(
                WriteResult.Refusal.NOT_FOUND));
        Handle handle = written(backend.write(key, Handle.NONE, bytes("x"), TIMEOUT));
        assertThat(backend.write(key, foreign, bytes("y"), TIMEOUT)).isEqualTo(new WriteResult.Refused(
                WriteResult.Refusal.PRECONDITION_FAILED));
        assertThat(backend.delete(key, foreign, TIMEOUT)).isEqualTo(DeleteResult.PRECONDITION_FAILED);
        assertThat(read(key).handle()).isEqualTo(handle);
    }

    @Test
    void aDeletedIndexIsReportedAsMissingWithTheFix(OpenSearchNode node) throws Exception {
        String own = TestSearch.uniqueIndex("deleted");
        try (ElasticsearchBackend gone = TestSearch.backend(node, own)) {
            assertThat(raw.delete("/" + own).status()).isEqualTo(200);

            BackendException e = catchThrowableOfType(BackendException.class,
                    () -> gone.read("elections/a", TIMEOUT));

            assertThat(e.kind()).isEqualTo(BackendException.Kind.MISSING_CONTAINER);
            assertThat(e.getMessage()).contains("index " + own).contains(node.endpoint().toString())
                    .contains("does not exist").contains("createIndex(true)");
        }
    }

    private static String newKey(String name) {
        return "t/" + UUID.randomUUID() + "/" + name;
    }

    private static StoredObject read(String key) throws BackendException {
        return backend.read(key, TIMEOUT).orElseThrow();
    }

    private static Map<String, Object> source(String key) throws Exception {
        return source(Json.parseObject(raw.get("/" + index + "/_doc/" + key.replace("/", "%2F")).body()));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> source(Map<String, Object> doc) {
        return (Map<String, Object>) doc.get("_source");
    }

    private static Handle written(WriteResult result) {
        assertThat(result).isInstanceOf(WriteResult.Written.class);
        return ((WriteResult.Written) result).handle();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
