package dev.hoplock.elasticsearch;

import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.BackendException.Kind;
import dev.hoplock.core.backend.CallBudget;
import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.core.json.Json;
import dev.hoplock.core.record.LeaseRecord;
import dev.hoplock.core.record.LeaseRecordCodec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * The start-up check of an {@link ElasticsearchBackend}, in three steps, each failing with a message that names the
 * endpoint (never with credentials), the index and the fix:
 * <ol>
 *   <li><b>The cluster answers</b> {@code GET /} as Elasticsearch or OpenSearch do (a version number). 401 is
 *       reported as refused credentials; 403 (the user lacks the cluster privilege {@code monitor}) is accepted,
 *       since the lease operations do not need it.</li>
 *   <li><b>The index exists</b> ({@code HEAD /<index>}), or is created with {@link LeaseDocument#INDEX_DEFINITION}
 *       when creation is on (given at least {@link #INDEX_CREATION_TIMEOUT}); an index created meanwhile by another
 *       process is fine.</li>
 *   <li><b>Compare-and-swap works</b>, on the side key {@value #PROBE_DIRECTORY}{@code /<random>} with real lease
 *       records: a create succeeds and returns the bytes exactly; a second create is refused; a swap with the
 *       current handle succeeds with a new handle; a swap with the stale handle is refused; a swap and a delete with
 *       the current sequence number and primary term but another write id (what a handle from a deleted and
 *       re-created index looks like, see {@link SeqNoHandle}) are refused; a delete with the stale handle is refused
 *       and leaves the document unchanged. A cluster that refuses the update script fails here with
 *       {@link SearchAnswerException.Refusal#SCRIPTS_REFUSED}. The side key is deleted afterwards (a failed clean-up
 *       is logged, not thrown). A store that accepts what it must refuse is reported as
 *       {@link Kind#CONDITIONAL_WRITES_NOT_SUPPORTED}: with it, two leaders could coexist.</li>
 * </ol>
 * Sequential requests cannot show a cluster that checks versions correctly one at a time but not under concurrent
 * writers; the check does not claim to.
 */
final class StartupCheck {

    /** The lease-key directory the probe writes under. */
    static final String PROBE_DIRECTORY = ".hoplock-probe";

    /**
     * The least time the index creation is given, whatever the request timeout: the cluster answers only once the new
     * index's shard is allocated and started, which takes seconds on a busy cluster (Elasticsearch and OpenSearch
     * themselves wait up to 30 s for it by default). It happens once, before any lease exists, so a longer wait here
     * delays only the start-up, never a lease decision.
     */
    static final Duration INDEX_CREATION_TIMEOUT = Duration.ofSeconds(30);

    private static final Logger log = LoggerFactory.getLogger(StartupCheck.class);

    private final ElasticsearchBackend backend;
    private final Duration stepTimeout;
    private final SearchErrors errors;

    StartupCheck(ElasticsearchBackend backend, Duration stepTimeout) {
        this.backend = Objects.requireNonNull(backend, "backend");
        this.stepTimeout = Objects.requireNonNull(stepTimeout, "stepTimeout");
        this.errors = backend.errors();
    }

    void run() throws BackendException {
        String product = clusterAnswers();
        backend.product(product);
        indexExists();
        conditionalWritesWork();
        log.info("{} answers, and refuses stale and duplicate writes (op_type=create, if_seq_no/if_primary_term, the"
                + " write id of the update script)", backend.describe());
    }

    /** Step 1: returns "Elasticsearch 9.1.0" or "OpenSearch 2.19.6", or "unknown version" after a 403. */
    private String clusterAnswers() throws BackendException {
        String action = "check the cluster (GET /)";
        HttpTransport.Response answer = backend.send("GET", "/", null, CallBudget.of(stepTimeout), action);
        if (answer.status() == 403) {
            log.debug("{} answered GET / with 403 (no cluster privilege 'monitor'); going on with the index checks",
                    errors.where());
            return "version unknown";
        }
        if (answer.status() != 200) {
            throw errors.unexpected(action, answer);
        }
        Map<String, Object> info;
        try {
            info = Json.parseObject(answer.text());
        } catch (IllegalArgumentException e) {
            info = Map.of();
        }
        if (!(info.get("version") instanceof Map<?, ?> version) || !(version.get("number") instanceof String number)) {
            throw new SearchAnswerException(Kind.MISCONFIGURED, SearchAnswerException.Refusal.NOT_A_SEARCH_ANSWER,
                    answer.status(), "cannot " + action + " (" + errors.where() + "): the answer has no version"
                    + " number, so this is not Elasticsearch or OpenSearch; check the endpoint (port 9200 by default,"
                    + " and any path prefix)");
        }
        boolean openSearch = "opensearch".equalsIgnoreCase(String.valueOf(version.get("distribution")));
        if (!openSearch && !supportsSeqNoConditions(number)) {
            throw new BackendException(Kind.CONDITIONAL_WRITES_NOT_SUPPORTED, "cannot use " + errors.where()
                    + ": Elasticsearch " + number + " has no if_seq_no/if_primary_term; hoplock needs Elasticsearch"
                    + " 6.7 or later (or OpenSearch)");
        }
        return (openSearch ? "OpenSearch " : "Elasticsearch ") + number;
    }

    /** Step 2. */
    private void indexExists() throws BackendException {
        String check = "check that the index exists (HEAD /" + backend.index() + ")";
        HttpTransport.Response head = backend.send("HEAD", backend.indexPath(), null, CallBudget.of(stepTimeout),
                check);
        if (head.status() == 200) {
            return;
        }
        if (head.status() == 403) {
            log.debug("{} refused HEAD on the index (no privilege view_index_metadata); the probe will tell",
                    errors.where());
            return;
        }
        if (head.status() != 404) {
            throw errors.unexpected(check, head);
        }
        if (!backend.createsIndex()) {
            throw new BackendException(Kind.MISSING_CONTAINER, "the " + errors.where() + " does not exist, and"
                    + " creating it is switched off: create it with the mapping in the hoplock README, or let hoplock"
                    + " create it (createIndex(true))");
        }
        String create = "create the index with hoplock's mapping (PUT /" + backend.index() + ")";
        HttpTransport.Response created = backend.send("PUT", backend.indexPath(),
                LeaseDocument.INDEX_DEFINITION.getBytes(StandardCharsets.UTF_8),
                CallBudget.of(longer(stepTimeout, INDEX_CREATION_TIMEOUT)), create);
        if (created.status() == 200) {
            log.info("created the {} with hoplock's mapping", errors.where());
            return;
        }
        if (created.status() == 400 && SearchErrors.errorType(created).equals("resource_already_exists_exception")) {
            return;
        }
        if (created.status() == 403) {
            throw new SearchAnswerException(Kind.ACCESS_DENIED, SearchAnswerException.Refusal.PRIVILEGE_MISSING,
                    403, "cannot " + create + " (" + errors.where() + "): HTTP 403; the credentials may not create"
                    + " indices: create the index with the mapping in the hoplock README, or grant the index privilege"
                    + " create_index on " + backend.index());
        }
        throw errors.unexpected(create, created);
    }

    /** Step 3. */
    private void conditionalWritesWork() throws BackendException {
        String nonce = UUID.randomUUID().toString();
        String key = PROBE_DIRECTORY + "/" + nonce;
        try {
            byte[] firstBody = probeRecord(1, nonce + "-1");
            Handle first = expectWritten(backend.write(key, Handle.NONE, firstBody, stepTimeout), key,
                    "refused to create a new document with op_type=create");
            Optional<StoredObject> stored = backend.read(key, stepTimeout);
            if (stored.isEmpty() || !stored.get().handle().equals(first)
                    || !Arrays.equals(stored.get().content(), firstBody)) {
                throw unsupported(key, "did not return the document it had just created, byte for byte, with its"
                        + " version");
            }
            expectRefused(backend.write(key, Handle.NONE, probeRecord(2, nonce + "-2"), stepTimeout), key,
                    "accepted a second create (op_type=create) of an existing document");
            Handle second = expectWritten(backend.write(key, first, probeRecord(3, nonce + "-3"), stepTimeout), key,
                    "refused a write with the document's current if_seq_no and if_primary_term");
            if (second.equals(first)) {
                throw unsupported(key, "returned the same _seq_no and _primary_term for a new version");
            }
            expectRefused(backend.write(key, first, probeRecord(4, nonce + "-4"), stepTimeout), key,
                    "accepted a write with a stale if_seq_no");
            Handle otherIncarnation = otherWriteId(second);
            expectRefused(backend.write(key, otherIncarnation, probeRecord(5, nonce + "-5"), stepTimeout), key,
                    "accepted a write with the current if_seq_no and if_primary_term but another write id (so a"
                    + " version from a deleted and re-created index would match)");
            DeleteResult otherDelete = backend.delete(key, otherIncarnation, stepTimeout);
            if (otherDelete != DeleteResult.PRECONDITION_FAILED) {
                throw unsupported(key, "answered " + otherDelete + " to a delete with the current if_seq_no and"
                        + " if_primary_term but another write id");
            }
            DeleteResult staleDelete = backend.delete(key, first, stepTimeout);
            Optional<StoredObject> kept = backend.read(key, stepTimeout);
            if (staleDelete != DeleteResult.PRECONDITION_FAILED || kept.isEmpty()
                    || !kept.get().handle().equals(second)) {
                throw unsupported(key, "answered " + staleDelete + " to a delete with a stale if_seq_no and "
                        + (kept.isEmpty() ? "removed the document" : "kept version " + kept.get().handle().value()));
            }
        } finally {
            cleanUp(key);
        }
    }

    /** {@code handle}'s sequence number and primary term with a new write id: a version of another incarnation. */
    private Handle otherWriteId(Handle handle) throws BackendException {
        SeqNoHandle version = SeqNoHandle.parse(handle).orElseThrow(() -> new BackendException(Kind.MISCONFIGURED,
                "the " + errors.where() + " returned the version " + handle.value() + ", which hoplock cannot read"));
        return new SeqNoHandle(version.seqNo(), version.primaryTerm(), SeqNoHandle.newWriteId()).handle();
    }

    private static Duration longer(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    private static byte[] probeRecord(long generation, String nonce) {
        return LeaseRecordCodec.encode(new LeaseRecord(generation, Instant.now(), "hoplock-start-up-check", nonce));
    }

    private Handle expectWritten(WriteResult result, String key, String failure) throws BackendException {
        if (result instanceof WriteResult.Written written) {
            return written.handle();
        }
        throw unsupported(key, failure + " (" + ((WriteResult.Refused) result).reason() + ")");
    }

    private void expectRefused(WriteResult result, String key, String failure) throws BackendException {
        if (!(result instanceof WriteResult.Refused)) {
            throw unsupported(key, failure);
        }
    }

    private BackendException unsupported(String key, String failure) {
        return new BackendException(Kind.CONDITIONAL_WRITES_NOT_SUPPORTED, "the " + errors.where() + " does not"
                + " honour conditional writes: on the probe key " + key + " it " + failure + ". With this store two"
                + " leaders could coexist, so hoplock refuses it. Connect hoplock to the cluster directly (a proxy"
                + " that rewrites query parameters breaks op_type and if_seq_no); if you are certain it is safe and"
                + " only the check is wrong, switch it off with ElasticsearchBackendBuilder.verify(false).");
    }

    /** Removes the side key if it exists, whatever its version; never throws. */
    private void cleanUp(String key) {
        try {
            Optional<StoredObject> left = backend.read(key, stepTimeout);
            if (left.isPresent() && backend.delete(key, left.get().handle(), stepTimeout) != DeleteResult.DELETED) {
                log.warn("the probe document {} in the {} changed while it was being removed; it is safe to delete"
                        + " by hand", key, errors.where());
            }
        } catch (BackendException | RuntimeException e) {
            log.debug("could not remove the probe document {} from the {}: {}; it is safe to delete by hand", key,
                    errors.where(), e.getMessage());
        }
    }

    /** True for 6.7 and later (if_seq_no and if_primary_term came with 6.7). */
    static boolean supportsSeqNoConditions(String version) {
        String[] parts = version.split("[.-]");
        try {
            int major = Integer.parseInt(parts[0]);
            int minor = parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
            return major > 6 || major == 6 && minor >= 7;
        } catch (NumberFormatException e) {
            return true;
        }
    }
}
