package dev.hoplock.azure.blob;

import com.azure.core.exception.HttpResponseException;
import com.azure.core.http.rest.Response;
import com.azure.core.util.BinaryData;
import com.azure.core.util.Context;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.models.BlobDownloadResponse;
import com.azure.storage.blob.models.BlobHttpHeaders;
import com.azure.storage.blob.models.BlobProperties;
import com.azure.storage.blob.models.BlobRange;
import com.azure.storage.blob.models.BlobRequestConditions;
import com.azure.storage.blob.models.BlockBlobItem;
import com.azure.storage.blob.models.DownloadRetryOptions;
import com.azure.storage.blob.options.BlockBlobSimpleUploadOptions;
import com.azure.storage.blob.specialized.BlockBlobClient;
import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.CallBudget;
import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.StoreCapabilities;
import dev.hoplock.core.backend.StoreCapabilities.Capability;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.core.record.LeaseRecordCodec;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * A {@link Backend} over one Azure Blob Storage container (plus an optional blob name prefix), for any number of lease
 * keys: each lease is one block blob whose bytes are the lease record, unchanged, and whose ETag is the
 * {@link Handle}.
 *
 * <h2>Protocol</h2>
 * <table>
 *   <caption>One request per operation (a refused swap or delete adds one read, see below)</caption>
 *   <tr><th>operation</th><th>request</th><th>answers</th></tr>
 *   <tr><td>read</td><td>Get Blob of the first {@code MAX_SIZE + 1} bytes ({@code x-ms-range})</td>
 *       <td>200/206 with an ETag; 404 {@code BlobNotFound}: no object</td></tr>
 *   <tr><td>create</td><td>Put Blob (block blob) with {@code If-None-Match: *}</td>
 *       <td>201: written; 409 {@code BlobAlreadyExists}, 412: refused</td></tr>
 *   <tr><td>swap</td><td>Put Blob with {@code If-Match: <ETag>}</td>
 *       <td>201: written; 412: refused; 404: not found</td></tr>
 *   <tr><td>delete</td><td>Delete Blob with {@code If-Match: <ETag>}</td>
 *       <td>202: deleted; 412: refused; 404: not found</td></tr>
 * </table>
 * A 412 to a swap or delete does not say whether the blob was missing or had another version, so the backend then
 * reads the blob once to tell {@code NOT_FOUND} from {@code PRECONDITION_FAILED}; a refused request changed nothing, so
 * the answer holds at the instant of that read. Every Put Blob also stores a random write id as metadata
 * ({@value #WRITE_ID}; the bytes stay the record): a refused write whose follow-up read finds its own write id is an
 * SDK retry refused by the call's own first attempt, whose answer was lost, and is reported as written, with the
 * blob's ETag, never as a false refusal. A refused write whose follow-up read fails (or finds no time left) cannot tell
 * the two apart, so its outcome is unknown: a {@link BackendException.Kind#TRANSIENT} failure, never a refusal. A
 * refused delete whose follow-up read fails is reported {@code PRECONDITION_FAILED}: the delete was refused either
 * way, only the reason is not known.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>Linearisable as far as Azure Blob Storage is: its primary endpoint is strongly consistent, and it checks a
 *       condition and writes as one step. Reads go only to the primary endpoint: a secondary endpoint
 *       ({@code <account>-secondary}) of a geo-redundant account is eventually consistent, and the builder refuses it,
 *       also as the SDK's retry host of an application's client.</li>
 *   <li>Each call, its follow-up read included, takes at most its {@code timeout}, capped by the configured
 *       {@linkplain AzureBlobBackendBuilder#requestTimeout(Duration) request timeout} ({@link CallBudget}); the SDK's
 *       own retries of 503 {@code ServerBusy} and 500 happen inside it. A call that runs out of time is a
 *       {@link BackendException.Kind#TRANSIENT} failure: for a write or delete the outcome is unknown, which the
 *       elector's adoption rule handles.</li>
 *   <li>Every other failure is a {@link BackendException} whose kind and message say what to do (see
 *       {@link BackendException.Kind}), naming the account endpoint, container and blob; no message, log line of ours,
 *       {@link #describe()} or {@link #toString()} contains an account key, a SAS token or a request signature.</li>
 *   <li>Mutual exclusion holds only if the store honours the conditional headers. A backend from
 *       {@link AzureBlobBackendBuilder#build()} has passed the create and swap checks of the conditional-write probe
 *       unless that was switched off; {@link #verify()} reports what the probe found.</li>
 * </ul>
 *
 * <p>Thread-safe. {@link #close()} releases nothing: Azure's clients hold no resources that need closing.
 */
public final class AzureBlobBackend implements Backend, AutoCloseable {

    /** The Content-Type of every lease blob. */
    public static final String CONTENT_TYPE = "application/json";

    private static final Logger log = LoggerFactory.getLogger(AzureBlobBackend.class);
    /** A read never asks for more than one byte beyond the largest lease record. */
    private static final BlobRange RECORD_RANGE = new BlobRange(0, (long) LeaseRecordCodec.MAX_SIZE + 1);
    private static final DownloadRetryOptions DOWNLOAD_RETRIES = new DownloadRetryOptions().setMaxRetryRequests(2);
    /**
     * The metadata name of the random id of the write that stored a blob's current version: how a refused SDK retry
     * recognises its own first attempt. Metadata, not bytes: the blob's bytes stay the lease record, unchanged.
     */
    static final String WRITE_ID = "hoplockwrite";

    private final BlobContainerClient container;
    private final BlobLocation location;
    private final Duration requestTimeout;
    private final BlobErrors errors;
    private final boolean probe;
    private final Object verifying = new Object();
    /** The remembered result of {@link #verify()}, or null until it has run. */
    private volatile ConditionalWriteProbe.@Nullable Verdict verification;

    AzureBlobBackend(BlobContainerClient container, BlobLocation location, Duration requestTimeout, Redaction redaction,
            boolean probe) {
        this.container = Objects.requireNonNull(container, "container");
        this.location = Objects.requireNonNull(location, "location");
        this.requestTimeout = Objects.requireNonNull(requestTimeout, "requestTimeout");
        this.errors = new BlobErrors(location, redaction);
        this.probe = probe;
    }

    /** Starts the configuration of an Azure Blob Storage backend. */
    public static AzureBlobBackendBuilder builder() {
        return new AzureBlobBackendBuilder();
    }

    @Override
    public Optional<StoredObject> read(String key, Duration timeout) throws BackendException {
        String blobName = location.blobName(key);
        return read(blobName, budget(timeout));
    }

    @Override
    public WriteResult write(String key, Handle expected, byte[] content, Duration timeout) throws BackendException {
        Objects.requireNonNull(expected, "expected");
        Objects.requireNonNull(content, "content");
        String blobName = location.blobName(key);
        CallBudget budget = budget(timeout);
        BlobRequestConditions condition = expected.isNone() ? new BlobRequestConditions().setIfNoneMatch("*")
                : new BlobRequestConditions().setIfMatch(expected.value());
        // The SDK keeps a reference to the bytes, and a request that ran out of time may still be sent: copy them.
        String writeId = UUID.randomUUID().toString();
        BlockBlobSimpleUploadOptions upload = new BlockBlobSimpleUploadOptions(BinaryData.fromBytes(content.clone()))
                .setHeaders(new BlobHttpHeaders().setContentType(CONTENT_TYPE))
                .setMetadata(Map.of(WRITE_ID, writeId))
                .setRequestConditions(condition);
        Response<BlockBlobItem> response;
        try {
            response = blob(blobName).uploadWithResponse(upload, sdkTimeout(budget), Context.NONE);
        } catch (HttpResponseException e) {
            if (BlobErrors.isRefusal(e)) {
                return refusedWrite(blobName, budget, writeId, expected.isNone());
            }
            if (!expected.isNone() && BlobErrors.isBlobMissing(e)) {
                return WriteResult.notFound();
            }
            throw errors.translate(e, BlobOperation.PUT, blobName, budget.budget());
        } catch (RuntimeException e) {
            throw errors.translate(e, BlobOperation.PUT, blobName, budget.budget());
        }
        String etag = response.getValue() == null ? null : response.getValue().getETag();
        if (etag == null || etag.isEmpty()) {
            throw new BackendException(BackendException.Kind.MISCONFIGURED, "Azure Blob Storage at "
                    + location.endpointDescription() + " stored " + location.uri(blobName) + " but answered without"
                    + " an ETag; hoplock needs ETags for compare-and-swap (is a proxy removing the ETag header?);"
                    + BlobErrors.outcome(BlobOperation.PUT));
        }
        return WriteResult.written(Handle.of(etag));
    }

    @Override
    public DeleteResult delete(String key, Handle expected, Duration timeout) throws BackendException {
        Objects.requireNonNull(expected, "expected");
        String blobName = location.blobName(key);
        CallBudget budget = budget(timeout);
        if (expected.isNone()) {
            // "Remove the blob if there is none" never removes anything: only the reason is looked up.
            return read(blobName, budget).isPresent() ? DeleteResult.PRECONDITION_FAILED : DeleteResult.NOT_FOUND;
        }
        try {
            blob(blobName).deleteWithResponse(null, new BlobRequestConditions().setIfMatch(expected.value()),
                    sdkTimeout(budget), Context.NONE);
            return DeleteResult.DELETED;
        } catch (HttpResponseException e) {
            if (BlobErrors.isRefusal(e)) {
                Reread now = reread(blobName, budget);
                return now.readable() && now.blob() == null ? DeleteResult.NOT_FOUND
                        : DeleteResult.PRECONDITION_FAILED;
            }
            if (BlobErrors.isBlobMissing(e)) {
                return DeleteResult.NOT_FOUND;
            }
            throw errors.translate(e, BlobOperation.DELETE, blobName, budget.budget());
        } catch (RuntimeException e) {
            throw errors.translate(e, BlobOperation.DELETE, blobName, budget.budget());
        }
    }

    /**
     * Probes the store once with the conditional-write probe and reports what it honours; later calls return the
     * remembered report without a request. With the probe switched off on the builder, sends nothing and reports every
     * capability {@link StoreCapabilities.Support#ASSUMED}. A store whose Delete Blob ignores {@code If-Match} is
     * reported with {@link Capability#CONDITIONAL_DELETE} {@code NOT_SUPPORTED} and a warning logged once: electors
     * that release by writing an expired record (the default) are safe on it, release by DELETE is refused by
     * {@link StoreCapabilities#requireFor(boolean)}.
     *
     * @throws BackendException when the store could not be asked (unreachable, access denied, no such container);
     *                          nothing is remembered then, so the next call probes again
     */
    @Override
    public StoreCapabilities verify() throws BackendException {
        ConditionalWriteProbe.Verdict known = verification;
        if (known != null) {
            return known.capabilities();
        }
        synchronized (verifying) {
            if (verification == null) {
                verification = probe ? probeNow()
                        : new ConditionalWriteProbe.Verdict(StoreCapabilities.assumed(describe()), null);
            }
            return verification.capabilities();
        }
    }

    /** Fails unless the store has a conditional create and swap, with the probe's message; for the builder. */
    void requireCreateAndSwap() throws BackendException {
        verify();
        ConditionalWriteProbe.Verdict verdict = verification;
        if (verdict != null && verdict.failure() != null && !verdict.createAndSwapVerified()) {
            throw verdict.failure();
        }
    }

    private ConditionalWriteProbe.Verdict probeNow() throws BackendException {
        ConditionalWriteProbe.Verdict verdict = new ConditionalWriteProbe(this, requestTimeout).check();
        StoreCapabilities capabilities = verdict.capabilities();
        if (verdict.createAndSwapVerified() && !capabilities.has(Capability.CONDITIONAL_DELETE)) {
            log.warn("hoplock: {} does not honour If-Match on Delete Blob ({}). Electors that release by writing an"
                    + " expired record (the default) are safe on it; release by DELETE (releaseByDelete) is refused"
                    + " on it.", describe(), capabilities.detail(Capability.CONDITIONAL_DELETE));
        }
        log.debug("hoplock: {} capabilities: {}", describe(), capabilities.summary());
        return verdict;
    }

    /** The blob name that holds {@code leaseKey}: the prefix, then the key (see the builder's prefix rule). */
    public String blobName(String leaseKey) {
        return location.blobName(leaseKey);
    }

    /** {@code <account endpoint>/<container>/<prefix>}, without any credential or query. */
    @Override
    public String describe() {
        return location.describe();
    }

    /** Releases nothing: Azure's clients hold no resources that need closing. */
    @Override
    public void close() {
        // Nothing to close: an Azure HTTP pipeline has no close(); the JDK HTTP client ends with its last reference.
    }

    @Override
    public String toString() {
        return "AzureBlobBackend[" + location.describe() + "]";
    }

    // ----------------------------------------------------------------------------------------- internals

    private Optional<StoredObject> read(String blobName, CallBudget budget) throws BackendException {
        return fetch(blobName, budget).map(Fetched::object);
    }

    /** A blob as read: the object, and the write id its metadata carries (null for a blob hoplock did not write). */
    private record Fetched(StoredObject object, @Nullable String writeId) {
    }

    private Optional<Fetched> fetch(String blobName, CallBudget budget) throws BackendException {
        // An empty blob has no byte 0, so a ranged read of it is refused (416 InvalidRange); its properties give the
        // ETag instead. If it grew meanwhile, read again while the budget lasts.
        for (int attempt = 0; ; attempt++) {
            try {
                ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                BlobDownloadResponse response = blob(blobName).downloadStreamWithResponse(bytes, RECORD_RANGE,
                        DOWNLOAD_RETRIES, null, false, sdkTimeout(budget), Context.NONE);
                return Optional.of(new Fetched(stored(blobName, bytes.toByteArray(),
                        response.getDeserializedHeaders().getETag()),
                        writeId(response.getDeserializedHeaders().getMetadata())));
            } catch (HttpResponseException e) {
                if (BlobErrors.isBlobMissing(e)) {
                    return Optional.empty();
                }
                if (!BlobErrors.is(e, BlobErrors.INVALID_RANGE) || attempt >= 2 || !budget.hasTimeLeft()) {
                    throw errors.translate(e, BlobOperation.GET, blobName, budget.budget());
                }
                Optional<Fetched> empty = emptyBlob(blobName, budget);
                if (empty.isPresent()) {
                    return empty;
                }
            } catch (RuntimeException e) {
                throw errors.translate(e, BlobOperation.GET, blobName, budget.budget());
            }
        }
    }

    /** The empty blob with its ETag, or empty when the blob is not (or no longer) empty. */
    private Optional<Fetched> emptyBlob(String blobName, CallBudget budget) throws BackendException {
        Response<BlobProperties> properties;
        try {
            properties = blob(blobName).getPropertiesWithResponse(null, sdkTimeout(budget), Context.NONE);
        } catch (RuntimeException e) {
            throw errors.translate(e, BlobOperation.GET, blobName, budget.budget());
        }
        if (properties.getValue().getBlobSize() != 0) {
            return Optional.empty();
        }
        return Optional.of(new Fetched(stored(blobName, new byte[0], properties.getValue().getETag()),
                writeId(properties.getValue().getMetadata())));
    }

    private StoredObject stored(String blobName, byte[] bytes, @Nullable String etag) throws BackendException {
        if (etag == null || etag.isEmpty()) {
            throw new BackendException(BackendException.Kind.MISCONFIGURED, "Azure Blob Storage at "
                    + location.endpointDescription() + " returned " + location.uri(blobName) + " without an ETag;"
                    + " hoplock needs ETags for compare-and-swap (is a proxy removing the ETag header?)");
        }
        return new StoredObject(bytes, Handle.of(etag));
    }

    /**
     * A refused Put Blob (412, or 409 for a create). A refused request changed nothing, so the blob read afterwards
     * tells why, at the instant of the read: no blob is NOT_FOUND (for a swap); a blob carrying this call's own write
     * id is an SDK retry refused because the call's first attempt had written it (its answer was lost), which is
     * written, with the blob's ETag; anything else is PRECONDITION_FAILED.
     *
     * @throws BackendException TRANSIENT when the blob cannot be read (or no time is left to read it): the refusal may
     *                          be the call's own first attempt's doing, so the write's outcome is unknown
     */
    private WriteResult refusedWrite(String blobName, CallBudget budget, String writeId, boolean create)
            throws BackendException {
        Reread now = reread(blobName, budget);
        Fetched blob = now.blob();
        String failure = now.failure();
        if (failure != null) {
            throw new BackendException(BackendException.Kind.TRANSIENT, "Azure Blob Storage at "
                    + location.endpointDescription() + " refused a Put Blob of " + location.uri(blobName) + ", and the"
                    + " blob could not be read to tell whether an earlier attempt of this same call (an SDK retry"
                    + " after a lost answer) had written it (" + failure + ")" + BlobErrors.outcome(BlobOperation.PUT));
        }
        if (blob == null) {
            return create ? WriteResult.preconditionFailed() : WriteResult.notFound();
        }
        if (writeId.equals(blob.writeId())) {
            log.debug("hoplock: a retried Put Blob of {} was refused because its first attempt had written it",
                    location.uri(blobName));
            return WriteResult.written(blob.object().handle());
        }
        return WriteResult.preconditionFailed();
    }

    /**
     * The blob read after a refusal: {@code blob} null for none; {@code failure} why it could not be read (a message
     * without secrets), null when it was read.
     */
    private record Reread(@Nullable Fetched blob, @Nullable String failure) {
        boolean readable() {
            return failure == null;
        }
    }

    private Reread reread(String blobName, CallBudget budget) {
        if (!budget.hasTimeLeft()) {
            return new Reread(null, "no time was left in the call's budget of " + budget.budget().toMillis()
                    + " ms to read it");
        }
        try {
            return new Reread(fetch(blobName, budget).orElse(null), null);
        } catch (BackendException e) {
            log.debug("hoplock: cannot read {} to tell why a conditional request was refused: {}",
                    location.uri(blobName), e.getMessage());
            return new Reread(null, String.valueOf(e.getMessage()));
        } catch (RuntimeException e) {
            BackendException translated = errors.translate(e, BlobOperation.GET, blobName, budget.budget());
            log.debug("hoplock: cannot read {} to tell why a conditional request was refused: {}",
                    location.uri(blobName), translated.getMessage());
            return new Reread(null, String.valueOf(translated.getMessage()));
        }
    }

    private static @Nullable String writeId(@Nullable Map<String, String> metadata) {
        return metadata == null ? null : metadata.get(WRITE_ID);
    }

    private BlockBlobClient blob(String blobName) {
        return container.getBlobClient(blobName).getBlockBlobClient();
    }

    private CallBudget budget(Duration timeout) throws BackendException {
        return CallBudget.forCall(timeout, requestTimeout, () -> "a request to " + location.describe());
    }

    /**
     * What is left of the budget, as the SDK's timeout: at least 1 ms, because the SDK waits without limit for a
     * timeout that rounds down to 0 ms.
     */
    private static Duration sdkTimeout(CallBudget budget) {
        return Duration.ofMillis(Math.max(1, budget.millisLeft()));
    }
}
