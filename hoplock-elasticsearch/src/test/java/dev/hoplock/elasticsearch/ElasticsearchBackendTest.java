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
import java.util.Objects;
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
        assertThat(handle.value()).as("the handle: sequence number, primary term and the document's write id")
                .isEqualTo(doc.get("_seq_no") + ":" + doc.get("_primary_term") + ":" + source(doc).get("write_id"));
        assertThat((String) source(doc).get("write_id")).matches("[0-9a-f]{32}");
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

        assertThat(source(text)).containsOnlyKeys("key", "record", "write_id").containsEntry("record", "not json");
        assertThat(source(corrupt)).containsOnlyKeys("key", "record", "write_id");
        assertThat(source(binary)).containsOnlyKeys("key", "record_base64", "write_id");
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

    /**
     * A document written by hand has no write id, so its handle is {@code <_seq_no>:<_primary_term>} alone: the
     * elector can still replace it (and an operator's record can be deleted through its handle), and a handle that
     * carries a write id does not match it even at its sequence number.
     */
    @Test
    void aDocumentWrittenByHandIsReplacedAndDeletedThroughAHandleWithoutWriteId() throws Exception {
        String key = newKey("by-hand-swap");
        String other = newKey("by-hand-delete");
        for (String k : new String[] {key, other}) {
            assertThat(raw.put("/" + index + "/_doc/" + k.replace("/", "%2F"),
                    "{\"generation\":3,\"expires_at\":\"2026-09-08T16:13:20.5+02:00\",\"owner\":\"ops\"}").status())
                    .isEqualTo(201);
        }
        Handle byHand = read(key).handle();
        SeqNoHandle version = SeqNoHandle.parse(byHand).orElseThrow();
        assertThat(version.writeId()).as("the write id of a document written by hand").isNull();
        Handle withWriteId = new SeqNoHandle(version.seqNo(), version.primaryTerm(), SeqNoHandle.newWriteId()).handle();

        assertThat(backend.write(key, withWriteId, bytes("x"), TIMEOUT))
                .isEqualTo(new WriteResult.Refused(WriteResult.Refusal.PRECONDITION_FAILED));
        assertThat(backend.delete(key, withWriteId, TIMEOUT)).isEqualTo(DeleteResult.PRECONDITION_FAILED);
        assertThat(read(key).handle()).isEqualTo(byHand);

        Handle replaced = written(backend.write(key, byHand, bytes("replaced"), TIMEOUT));
        assertThat(read(key).content()).isEqualTo(bytes("replaced"));
        assertThat(SeqNoHandle.parse(replaced).orElseThrow().writeId()).isNotNull();
        assertThat(source(key)).containsOnlyKeys("key", "record", "write_id");
        assertThat(backend.write(key, byHand, bytes("again"), TIMEOUT))
                .isEqualTo(new WriteResult.Refused(WriteResult.Refusal.PRECONDITION_FAILED));

        assertThat(backend.delete(other, read(other).handle(), TIMEOUT)).isEqualTo(DeleteResult.DELETED);
        assertThat(backend.read(other, TIMEOUT)).isEmpty();
    }

    /**
     * Issue 19 defect 4, across processes: a stale holder (its own backend, as in another process) keeps the handle
     * of its record while the index is deleted and re-created and a new holder (another backend) writes the same key
     * at the same sequence number and primary term. The stale holder's swap and delete must be refused, and the new
     * holder's record stays. Before the fix the handle was {@code 0:1} in both indexes and the stale swap applied.
     */
    @Test
    void aStaleHolderCannotReplaceOrDeleteANewHoldersRecordAfterTheIndexIsRecreated(OpenSearchNode node)
            throws Exception {
        String own = TestSearch.uniqueIndex("recreated");
        try (ElasticsearchBackend staleHolder = TestSearch.backend(node, own);
             ElasticsearchBackend newHolder = TestSearch.backend(node, own)) {
            String key = "elections/billing";
            TestSearch.recreateIndex(node, own);
            Handle stale = written(staleHolder.write(key, Handle.NONE, LeaseRecordCodec.encode(
                    new LeaseRecord(4, Instant.now().plusSeconds(30), "stale", "n-stale")), TIMEOUT));

            TestSearch.recreateIndex(node, own);
            byte[] fresh = LeaseRecordCodec.encode(new LeaseRecord(1, Instant.now().plusSeconds(30), "new", "n-new"));
            Handle current = written(newHolder.write(key, Handle.NONE, fresh, TIMEOUT));
            SeqNoHandle staleVersion = SeqNoHandle.parse(stale).orElseThrow();
            SeqNoHandle currentVersion = SeqNoHandle.parse(current).orElseThrow();
            assertThat(currentVersion.seqNo() + ":" + currentVersion.primaryTerm())
                    .as("the new index repeats the sequence number and primary term")
                    .isEqualTo(staleVersion.seqNo() + ":" + staleVersion.primaryTerm());

            assertThat(staleHolder.write(key, stale, LeaseRecordCodec.encode(
                    new LeaseRecord(5, Instant.now().plusSeconds(30), "stale", "n-stale-2")), TIMEOUT))
                    .isEqualTo(new WriteResult.Refused(WriteResult.Refusal.PRECONDITION_FAILED));
            assertThat(staleHolder.delete(key, stale, TIMEOUT)).isEqualTo(DeleteResult.PRECONDITION_FAILED);

            StoredObject kept = newHolder.read(key, TIMEOUT).orElseThrow();
            assertThat(kept.content()).isEqualTo(fresh);
            assertThat(kept.handle()).isEqualTo(current);
            assertThat(written(newHolder.write(key, current, bytes("renewed"), TIMEOUT))).isNotEqualTo(current);
        }
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
        return (Map<String, Object>) Objects.requireNonNull(doc.get("_source"), "a document has a _source");
    }

    private static Handle written(WriteResult result) {
        assertThat(result).isInstanceOf(WriteResult.Written.class);
        return ((WriteResult.Written) result).handle();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
