package dev.hoplock.elasticsearch;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.CallBudget;
import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.LeaseKeys;
import dev.hoplock.core.backend.StoreCapabilities;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.core.json.Json;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@link Backend} over one Elasticsearch or OpenSearch index: every lease key is one document, and
 * compare-and-swap is the document's sequence number and primary term, through the REST API both products share.
 *
 * <h2>Protocol</h2>
 * <table>
 *   <caption>One request per operation (a refused write or delete adds one read, see below)</caption>
 *   <tr><th>operation</th><th>request</th><th>answers</th></tr>
 *   <tr><td>read</td><td>{@code GET /<index>/_doc/<id>} (real-time: no refresh needed)</td>
 *       <td>200: the bytes, handle {@code <_seq_no>:<_primary_term>:<write id>}; 404: no object</td></tr>
 *   <tr><td>create ({@link Handle#NONE})</td><td>{@code PUT /<index>/_doc/<id>?op_type=create}, the document
 *       with a new write id</td>
 *       <td>201: written; 409: the key exists ({@code PRECONDITION_FAILED})</td></tr>
 *   <tr><td>swap</td><td>{@code POST /<index>/_update/<id>?if_seq_no=S&if_primary_term=T}, the script of
 *       {@link ConditionalUpdate} with the handle's write id and the new document (a new write id)</td>
 *       <td>200 {@code updated}: written; 200 {@code noop}, 409: refused; 404: no object</td></tr>
 *   <tr><td>delete</td><td>the same update, with the script's delete</td>
 *       <td>200 {@code deleted}: deleted; 200 {@code noop}, 409: refused; 404: no object</td></tr>
 * </table>
 * A refusal (409 or {@code noop}) does not say whether the document was missing or had another version, so a refused
 * swap or delete reads the key once to tell {@code NOT_FOUND} from {@code PRECONDITION_FAILED}; the refusal itself is
 * certain either way.
 *
 * <p><b>Handles never repeat, also across a re-creation of the index</b> (the fresh-handle clause of the
 * {@link Backend} contract): {@code _seq_no} and {@code _primary_term} start again at {@code 0:1} in a new index, so
 * they alone would let a stale holder's swap or delete, conditional on a handle from the deleted index, apply to a new
 * holder's document. Every document therefore carries a random write id, new on every write and part of the handle
 * ({@link SeqNoHandle}), and a swap or delete applies only if the document holds it, checked by the update script on
 * the primary shard in the same step as the write ({@link ConditionalUpdate}): a handle from an earlier incarnation
 * of the index matches nothing, with no window between a check and the write. The backend need not notice that the
 * index was re-created: reads return the new index's documents with their own write ids.
 * The document id is the lease key ({@code /} sent as {@code %2F}); the document's fields are described in
 * {@link LeaseDocument}: the record's fields for people, and the exact bytes for the elector.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>Linearisable per key as far as the cluster is: every write is conditional and executes on the primary
 *       shard, which orders it. A read may be answered by a replica; a stale read cannot break mutual exclusion,
 *       because the only thing a reader can do with what it read is a conditional write, which the primary then
 *       refuses.</li>
 *   <li>Each call, all its requests together, takes at most its {@code timeout}, capped by the configured
 *       {@linkplain ElasticsearchBackendBuilder#requestTimeout(Duration) request timeout}.</li>
 *   <li>Every failure is a {@link BackendException} whose kind and message say what to do, naming the endpoint
 *       and index; no message, log line or {@link #toString()} contains credentials.</li>
 *   <li>Mutual exclusion holds only if the cluster honours {@code op_type=create} and {@code if_seq_no}. A backend
 *       from {@link ElasticsearchBackendBuilder#build()} has passed {@link #verify()} unless that was switched
 *       off.</li>
 * </ul>
 *
 * <p>Thread-safe. {@link #close()} closes the transport only if the builder created it.
 */
public final class ElasticsearchBackend implements Backend, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ElasticsearchBackend.class);

    private final HttpTransport transport;
    private final boolean ownsTransport;
    private final String index;
    private final Duration requestTimeout;
    private final boolean createIndex;
    private final SearchErrors errors;
    private final VerifiedOnce verification;
    private volatile @Nullable String product;

    ElasticsearchBackend(HttpTransport transport, boolean ownsTransport, String index, Duration requestTimeout,
            boolean createIndex, Redaction redaction) {
        this.transport = Objects.requireNonNull(transport, "transport");
        this.ownsTransport = ownsTransport;
        this.index = Objects.requireNonNull(index, "index");
        this.requestTimeout = Objects.requireNonNull(requestTimeout, "requestTimeout");
        this.createIndex = createIndex;
        this.errors = new SearchErrors(transport.endpoint(), index, redaction);
        this.verification = new VerifiedOnce(() -> {
            new StartupCheck(this, this.requestTimeout).run();
            return StoreCapabilities.assumed(describe());
        });
    }

    /** Starts the configuration of an Elasticsearch / OpenSearch backend. */
    public static ElasticsearchBackendBuilder builder() {
        return new ElasticsearchBackendBuilder();
    }

    @Override
    public Optional<StoredObject> read(String key, Duration timeout) throws BackendException {
        String path = documentPath(LeaseKeys.validate(key));
        return read(key, path, budget(timeout));
    }

    @Override
    public WriteResult write(String key, Handle expected, byte[] content, Duration timeout) throws BackendException {
        String path = documentPath(LeaseKeys.validate(key));
        Objects.requireNonNull(expected, "expected");
        String writeId = SeqNoHandle.newWriteId();
        byte[] document = LeaseDocument.encode(key, Objects.requireNonNull(content, "content"), writeId);
        CallBudget deadline = budget(timeout);
        String action = "write lease key " + key;
        if (expected.isNone()) {
            HttpTransport.Response answer = send("PUT", path + "?op_type=create", document, deadline, action);
            if (answer.status() == 200 || answer.status() == 201) {
                return WriteResult.written(version(answer, action, writeId).handle());
            }
            if (answer.status() == 409) {
                return WriteResult.preconditionFailed();
            }
            throw errors.unexpected(action, answer);
        }
        Optional<SeqNoHandle> version = SeqNoHandle.parse(expected);
        if (version.isEmpty()) {
            return writeRefusal(key, path, deadline);
        }
        HttpTransport.Response answer = send("POST", updatePath(key) + "?" + version.get().condition(),
                ConditionalUpdate.swap(version.get().writeId(), document), deadline, action);
        if (answer.status() == 200) {
            Map<String, Object> fields = parse(answer, action);
            if ("updated".equals(fields.get("result"))) {
                return WriteResult.written(version(fields, action, writeId).handle());
            }
            return writeRefusal(key, path, deadline);
        }
        if (isDocumentMissing(answer)) {
            return WriteResult.notFound();
        }
        if (answer.status() == 409) {
            return writeRefusal(key, path, deadline);
        }
        throw errors.unexpected(action, answer);
    }

    @Override
    public DeleteResult delete(String key, Handle expected, Duration timeout) throws BackendException {
        String path = documentPath(LeaseKeys.validate(key));
        Objects.requireNonNull(expected, "expected");
        CallBudget deadline = budget(timeout);
        Optional<SeqNoHandle> version = SeqNoHandle.parse(expected);
        if (version.isEmpty()) {
            // Handle.NONE, or a handle from elsewhere: it matches no version, so nothing can be deleted.
            return read(key, path, deadline).isPresent() ? DeleteResult.PRECONDITION_FAILED : DeleteResult.NOT_FOUND;
        }
        String action = "delete lease key " + key;
        HttpTransport.Response answer = send("POST", updatePath(key) + "?" + version.get().condition(),
                ConditionalUpdate.delete(version.get().writeId()), deadline, action);
        if (answer.status() == 200) {
            return "deleted".equals(parse(answer, action).get("result")) ? DeleteResult.DELETED
                    : deleteRefusal(key, path, deadline);
        }
        if (isDocumentMissing(answer)) {
            return DeleteResult.NOT_FOUND;
        }
        if (answer.status() == 409) {
            return deleteRefusal(key, path, deadline);
        }
        throw errors.unexpected(action, answer);
    }

    /**
     * Checks that the cluster answers, that the index exists (creating it with the fixed mapping if that is
     * enabled and it is missing), and that the cluster refuses the writes a compare-and-swap store must refuse.
     * {@link ElasticsearchBackendBuilder#build()} calls it unless switched off. The check runs once per backend: once
     * it has passed, later calls (an elector's own check before it campaigns) return the same answer without a
     * request; after a failure the next call runs it again.
     *
     * @throws BackendException naming the endpoint, the index and the fix: {@link BackendException.Kind#UNREACHABLE},
     *                          {@link BackendException.Kind#ACCESS_DENIED} (401, 403),
     *                          {@link BackendException.Kind#MISSING_CONTAINER} (no index, creation off),
     *                          {@link BackendException.Kind#CONDITIONAL_WRITES_NOT_SUPPORTED} (the probe failed),
     *                          {@link BackendException.Kind#MISCONFIGURED} (not a search cluster, a foreign mapping);
     *                          a {@link SearchAnswerException} when the cluster answered with a status the request
     *                          does not expect, saying which refusal it was
     * @return every capability assumed: the check above throws unless the cluster refuses what it must refuse
     */
    @Override
    public StoreCapabilities verify() throws BackendException {
        return verification.get();
    }

    /** The index that holds the lease documents. */
    public String index() {
        return index;
    }

    /** The cluster's address, without credentials. */
    public String endpoint() {
        return transport.endpoint();
    }

    /** {@code elasticsearch index <index> at <endpoint>}, with the product and version once {@link #verify()} ran. */
    @Override
    public String describe() {
        String known = product;
        return "elasticsearch " + errors.where() + (known == null ? "" : " (" + known + ")");
    }

    /** Closes the transport if the builder created it; a transport passed in by the caller stays open. */
    @Override
    public void close() {
        if (ownsTransport) {
            transport.close();
        }
    }

    @Override
    public String toString() {
        return "ElasticsearchBackend[" + errors.where() + "]";
    }

    // ------------------------------------------------------------------------------------ for StartupCheck

    boolean createsIndex() {
        return createIndex;
    }

    SearchErrors errors() {
        return errors;
    }

    void product(String product) {
        this.product = product;
    }

    /** Sends one request within what is left of {@code deadline}; throws if there is no answer. */
    HttpTransport.Response send(String method, String pathAndQuery, byte @Nullable [] body, CallBudget deadline,
            String action)
            throws BackendException {
        Duration left = deadline.remaining();
        if (left.isZero()) {
            throw new BackendException(BackendException.Kind.TRANSIENT, "cannot " + action + " (" + errors.where()
                    + "): the time budget of " + deadline.budget().toMillis() + " ms ran out before the request;"
                    + " nothing was sent");
        }
        try {
            return transport.send(new HttpTransport.Request(method, pathAndQuery, body), left);
        } catch (IOException e) {
            throw errors.noAnswer(action, e, left);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BackendException(BackendException.Kind.TRANSIENT, "interrupted while trying to " + action
                    + " (" + errors.where() + "); nothing is known about the outcome", e);
        }
    }

    /** {@code /<index>}: index names need no encoding (see the builder's rule). */
    String indexPath() {
        return "/" + index;
    }

    // ----------------------------------------------------------------------------------------- internals

    private Optional<StoredObject> read(String key, String path, CallBudget deadline) throws BackendException {
        String action = "read lease key " + key;
        HttpTransport.Response answer = send("GET", path, null, deadline, action);
        if (answer.status() == 404 && !SearchErrors.isIndexMissing(answer)) {
            return Optional.empty();
        }
        if (answer.status() != 200) {
            throw errors.unexpected(action, answer);
        }
        Map<String, Object> found = parse(answer, action);
        if (!Boolean.TRUE.equals(found.get("found"))) {
            return Optional.empty();
        }
        if (!(found.get("_source") instanceof Map<?, ?> source)) {
            throw malformed(action, "a document without _source (is _source disabled in the index mapping?)");
        }
        byte[] content;
        String writeId;
        try {
            @SuppressWarnings("unchecked")
            Map<String, Object> fields = (Map<String, Object>) source;
            content = LeaseDocument.content(fields);
            writeId = LeaseDocument.writeId(fields).orElse(null);
        } catch (IllegalArgumentException e) {
            throw malformed(action, "a document hoplock cannot read: " + e.getMessage());
        }
        return Optional.of(new StoredObject(content, version(found, action, writeId).handle()));
    }

    /** A refused swap: the document is missing ({@code NOT_FOUND}) or has another version. */
    private WriteResult writeRefusal(String key, String path, CallBudget deadline) throws BackendException {
        return exists(key, path, deadline) ? WriteResult.preconditionFailed() : WriteResult.notFound();
    }

    private DeleteResult deleteRefusal(String key, String path, CallBudget deadline) throws BackendException {
        return exists(key, path, deadline) ? DeleteResult.PRECONDITION_FAILED : DeleteResult.NOT_FOUND;
    }

    /**
     * Whether the key exists now, to name the reason of a refusal that is certain. When the read cannot be made,
     * the answer is "exists" ({@code PRECONDITION_FAILED}): the refusal stands, only its reason is a guess.
     */
    private boolean exists(String key, String path, CallBudget deadline) {
        try {
            return read(key, path, deadline).isPresent();
        } catch (BackendException e) {
            log.debug("cannot tell why {} refused a conditional request on {}: {}", errors.where(), key,
                    e.getMessage());
            return true;
        }
    }

    private SeqNoHandle version(HttpTransport.Response answer, String action, String writeId)
            throws BackendException {
        return version(parse(answer, action), action, writeId);
    }

    /** The version an answer names, with the write id of the document it is about. */
    private SeqNoHandle version(Map<String, Object> fields, String action, @Nullable String writeId)
            throws BackendException {
        if (fields.get("_seq_no") instanceof Json.NumberLiteral seqNo
                && fields.get("_primary_term") instanceof Json.NumberLiteral term
                && seqNo.value().signum() >= 0 && term.value().signum() > 0) {
            try {
                return new SeqNoHandle(seqNo.value().longValueExact(), term.value().longValueExact(), writeId);
            } catch (ArithmeticException e) {
                // falls through to the error below
            }
        }
        throw malformed(action, "an answer without _seq_no and _primary_term; hoplock needs Elasticsearch 6.7 or"
                + " later, or OpenSearch, for compare-and-swap");
    }

    private Map<String, Object> parse(HttpTransport.Response answer, String action) throws BackendException {
        try {
            return Json.parseObject(answer.text());
        } catch (IllegalArgumentException e) {
            throw malformed(action, "an answer that is not a JSON object (" + e.getMessage() + ")");
        }
    }

    private BackendException malformed(String action, String what) {
        return new BackendException(BackendException.Kind.MISCONFIGURED, "cannot " + action + " (" + errors.where()
                + "): the cluster sent " + what);
    }

    private String documentPath(String key) {
        return indexPath() + "/_doc/" + key.replace("/", "%2F");
    }

    private String updatePath(String key) {
        return indexPath() + "/_update/" + key.replace("/", "%2F");
    }

    /** A 404 of an update: the document does not exist (the index does; a missing index is an error). */
    private static boolean isDocumentMissing(HttpTransport.Response answer) {
        return answer.status() == 404 && !SearchErrors.isIndexMissing(answer);
    }

    /** The caller's timeout, capped by the configured request timeout. */
    private CallBudget budget(Duration timeout) throws BackendException {
        return CallBudget.forCall(timeout, requestTimeout, () -> "a request to " + errors.where());
    }
}
