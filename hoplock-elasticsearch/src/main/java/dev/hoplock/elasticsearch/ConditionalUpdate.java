package dev.hoplock.elasticsearch;

import dev.hoplock.core.json.Json;
import org.jspecify.annotations.Nullable;

import java.nio.charset.StandardCharsets;

/**
 * The body of a swap or delete conditional on a {@link SeqNoHandle}: a scripted {@code _update} that applies only if
 * the document still holds the handle's write id, sent with the handle's {@code if_seq_no}/{@code if_primary_term}.
 *
 * <p>Why a script: {@code if_seq_no} compares only the sequence number and primary term, which restart at
 * {@code 0:1} when the index is deleted and created again, so a stale holder's handle from the earlier index matches
 * a new holder's document. The write id ({@link LeaseDocument#WRITE_ID}) is random per write and stored in the
 * document; no request parameter compares a field, but an update script does, and the primary shard runs the whole
 * update (read the current document, run the script, index the result conditional on the version it read) as one
 * step under the document's lock. So the write id is checked atomically with the write: there is no window between a
 * check and the write in which the index could be replaced.
 *
 * <p>Guarantees of the script ({@value #SCRIPT}):
 * <ul>
 *   <li>the document's {@value LeaseDocument#WRITE_ID} differs from the expected one (a handle without a write id
 *       expects a document without one): {@code ctx.op = 'none'}, the answer is 200 with {@code "result":"noop"}
 *       and nothing changes;</li>
 *   <li>it equals, for a swap: the document's source is replaced by the new document (every field, so nothing of the
 *       earlier version is left), {@code "result":"updated"};</li>
 *   <li>it equals, for a delete: the document is deleted, {@code "result":"deleted"}.</li>
 * </ul>
 * Painless is a module of every Elasticsearch and OpenSearch distribution, and inline scripts in the update context
 * are allowed by default; a cluster that forbids them ({@code script.allowed_types}, {@code script.allowed_contexts})
 * fails the start-up check with {@link SearchAnswerException.Refusal#SCRIPTS_REFUSED}. The source never changes (the
 * values are parameters), so the cluster compiles it once and caches it.
 */
final class ConditionalUpdate {

    /** The update script; its source is constant, so it is compiled once. */
    static final String SCRIPT = "if (ctx._source." + LeaseDocument.WRITE_ID + " != params.expected) {"
            + " ctx.op = 'none' } else if (params.delete) { ctx.op = 'delete' } else {"
            + " ctx._source.clear(); ctx._source.putAll(params.document) }";

    private ConditionalUpdate() {
    }

    /** The body of a swap to {@code document} (as {@link LeaseDocument#encode} made it) if the write id matches. */
    static byte[] swap(@Nullable String expectedWriteId, byte[] document) {
        return body(expectedWriteId, false, new String(document, StandardCharsets.UTF_8));
    }

    /** The body of a delete if the write id matches. */
    static byte[] delete(@Nullable String expectedWriteId) {
        return body(expectedWriteId, true, "null");
    }

    private static byte[] body(@Nullable String expectedWriteId, boolean delete, String documentJson) {
        StringBuilder json = new StringBuilder(documentJson.length() + 400);
        Json.quote(json.append("{\"script\":{\"lang\":\"painless\",\"source\":"), SCRIPT);
        json.append(",\"params\":{\"expected\":");
        if (expectedWriteId == null) {
            json.append("null");
        } else {
            Json.quote(json, expectedWriteId);
        }
        json.append(",\"delete\":").append(delete).append(",\"document\":").append(documentJson).append("}}}");
        return json.toString().getBytes(StandardCharsets.UTF_8);
    }
}
