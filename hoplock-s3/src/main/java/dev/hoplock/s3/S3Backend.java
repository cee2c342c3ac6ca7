package dev.hoplock.s3;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.CallBudget;
import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.StoreCapabilities;
import dev.hoplock.core.backend.StoreCapabilities.Capability;
import dev.hoplock.core.backend.StoreCapabilities.Support;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@link Backend} over one S3 bucket (plus an optional key prefix), using S3 conditional writes, for any number
 * of lease keys: the object key of a lease key is {@code prefix + key}.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>The protocol shared with Go hoplock: read is a GET (200 with an ETag, or 404 for "no object"; a 200
 *       without an ETag is an error); create is a PUT with {@code If-None-Match: *}; swap is a PUT with
 *       {@code If-Match: <etag>}; delete is a DELETE with {@code If-Match: <etag>}; bodies are sent as
 *       {@code application/json}.</li>
 *   <li>The ETag is the {@link Handle}, kept exactly as the store gave it and sent back in one {@link IfMatchForm}
 *       for the backend's life: as received (quoted) unless the builder asked for another form or the probe found
 *       that the store compares only bare ETags (see {@link #verify()}). A refused request is never
 *       repeated in another form: a store or proxy that ignores a malformed {@code If-Match} would turn that retry
 *       into an unconditional write.</li>
 *   <li>412, and 409 (AWS's {@code ConditionalRequestConflict}: a concurrent write or delete won), are
 *       {@linkplain WriteResult#preconditionFailed() refusals}; 404 on a conditional write is
 *       {@linkplain WriteResult#notFound() not found}, on a delete {@link DeleteResult#NOT_FOUND}. On a store that
 *       the probe found answering 412 also to {@code If-Match} on a missing key (Ceph RGW), a refused swap is
 *       followed by one read, and no object then means {@linkplain WriteResult#notFound() not found}.</li>
 *   <li>A 5xx answer, also the 500 that Ceph RGW gives some losing concurrent swaps, is retried by the SDK within the
 *       call's budget (a retried swap then meets the new version and is refused) and otherwise ends in a
 *       {@link BackendException.Kind#TRANSIENT} exception: the outcome is unknown, which the elector's adoption rule
 *       handles.</li>
 *   <li>Each call takes at most its {@code timeout}, capped by the configured
 *       {@linkplain S3BackendBuilder#requestTimeout(Duration) request timeout}: it is the SDK's API-call timeout, so
 *       the SDK's own retries of 5xx answers and throttling happen inside it, never past it.</li>
 *   <li>Every other failure is a {@link BackendException} whose kind and message say what to do (see
 *       {@link BackendException.Kind}); no message, log line or {@link #toString()} contains credentials.</li>
 *   <li>Mutual exclusion holds only if the store honours conditional writes. A backend from
 *       {@link S3BackendBuilder#build()} has passed the create and swap checks of the {@link ConditionalWriteProbe}
 *       unless that was switched off; {@link #verify()} reports what the probe found (conditional DELETE included),
 *       and {@link StoreCapabilities#requireFor(boolean)} refuses what a consumer cannot do safely.</li>
 * </ul>
 *
 * <p>Thread-safe. {@link #close()} closes the S3 client only if the builder created it.
 */
public final class S3Backend implements Backend, AutoCloseable {

    /** The Content-Type of every lease object. */
    public static final String CONTENT_TYPE = "application/json";

    private static final Logger log = LoggerFactory.getLogger(S3Backend.class);

    private final S3Client client;
    private final boolean ownsClient;
    private final S3Location location;
    private final Duration requestTimeout;
    private final S3Requests requests;
    /** The form the builder fixed, or null when the probe may choose. */
    private final @Nullable IfMatchForm fixedForm;
    /** Whether {@link #verify()} probes the store (false: the builder switched the probe off). */
    private final boolean probe;
    private final Object verifying = new Object();
    private volatile IfMatchForm ifMatchForm;
    /** True when the store answers 412 (not 404) to If-Match on a missing key, as Ceph RGW does. */
    private volatile boolean missingKeyRefusedAs412;
    /** The remembered result of {@link #verify()}, or null until it has run. */
    private volatile @Nullable Verification verification;

    /**
     * @param fixedForm the {@code If-Match} form the builder fixed, or null: as received until the probe chooses
     * @param probe     whether {@link #verify()} runs the {@link ConditionalWriteProbe}
     */
    S3Backend(S3Client client, boolean ownsClient, S3Location location, Duration requestTimeout,
            @Nullable IfMatchForm fixedForm, boolean probe) {
        this.client = Objects.requireNonNull(client, "client");
        this.ownsClient = ownsClient;
        this.location = Objects.requireNonNull(location, "location");
        this.requestTimeout = Objects.requireNonNull(requestTimeout, "requestTimeout");
        this.requests = new S3Requests(this.client, this.location);
        this.fixedForm = fixedForm;
        this.probe = probe;
        this.ifMatchForm = fixedForm == null ? IfMatchForm.AS_RECEIVED : fixedForm;
    }

    /** Starts the configuration of an S3 backend. */
    public static S3BackendBuilder builder() {
        return new S3BackendBuilder();
    }

    @Override
    public Optional<StoredObject> read(String key, Duration timeout) throws BackendException {
        return requests.get(location.objectKey(key), budget(timeout));
    }

    @Override
    public WriteResult write(String key, Handle expected, byte[] content, Duration timeout) throws BackendException {
        return write(key, expected, content, timeout, ifMatchForm);
    }

    private WriteResult write(String key, Handle expected, byte[] content, Duration timeout, IfMatchForm form)
            throws BackendException {
        return write(key, expected, content, timeout, form, missingKeyRefusedAs412);
    }

    private WriteResult write(String key, Handle expected, byte[] content, Duration timeout, IfMatchForm form,
            boolean lookUpMissingKey) throws BackendException {
        Objects.requireNonNull(expected, "expected");
        Objects.requireNonNull(content, "content");
        String objectKey = location.objectKey(key);
        CallBudget deadline = budget(timeout);
        try {
            return requests.written(objectKey, requests.put(objectKey, expected, form.apply(expected.value()), content,
                    deadline));
        } catch (SdkException e) {
            WriteResult refusal = requests.writeRefusal(e, objectKey, deadline);
            return lookUpMissingKey && !expected.isNone() && refusal.equals(WriteResult.preconditionFailed())
                    && S3Responses.isPreconditionFailed(e) ? reasonOfRefusal(key, deadline) : refusal;
        }
    }

    /**
     * The reason of a swap that a store which answers 412 also for a missing key refused. The refusal is certain;
     * only its reason is looked up, by a read: no object now means NOT_FOUND. That is linearisable: a refused write
     * changed nothing, so it may take effect at the instant of the read, when the key was absent. If the read fails
     * or no time is left, the answer stays PRECONDITION_FAILED, which callers treat the same way except in the
     * reason they report.
     */
    private WriteResult reasonOfRefusal(String key, CallBudget deadline) {
        Duration left = deadline.remaining();
        if (left.isZero()) {
            return WriteResult.preconditionFailed();
        }
        try {
            return read(key, left).isEmpty() ? WriteResult.notFound() : WriteResult.preconditionFailed();
        } catch (BackendException | RuntimeException e) {
            log.debug("hoplock: cannot read {} to tell why a swap was refused: {}", objectKey(key), e.getMessage());
            return WriteResult.preconditionFailed();
        }
    }

    @Override
    public DeleteResult delete(String key, Handle expected, Duration timeout) throws BackendException {
        return delete(key, expected, timeout, ifMatchForm);
    }

    private DeleteResult delete(String key, Handle expected, Duration timeout, IfMatchForm form)
            throws BackendException {
        Objects.requireNonNull(expected, "expected");
        String objectKey = location.objectKey(key);
        if (expected.isNone()) {
            // "Remove the object if there is none" never removes anything; S3 has no header for it, so read instead.
            return read(key, timeout).isPresent() ? DeleteResult.PRECONDITION_FAILED : DeleteResult.NOT_FOUND;
        }
        CallBudget deadline = budget(timeout);
        try {
            return requests.delete(objectKey, form.apply(expected.value()), deadline);
        } catch (SdkException e) {
            return requests.deleteRefusal(e, objectKey, deadline);
        }
    }

    /**
     * Probes the store once with the {@link ConditionalWriteProbe} and reports what it honours; later calls return the
     * remembered report without a request. With the probe switched off on the builder, sends nothing and reports
     * every capability {@link Support#ASSUMED}.
     *
     * <p>This is also where the {@link IfMatchForm} is chosen, once, unless the builder fixed it: the probe runs with
     * ETags as received; if the store refused the swap with the current (quoted) ETag, the probe runs again with bare
     * ETags, and if the create and swap checks pass that way the backend sends bare ETags from then on. A store that
     * ignores an unquoted {@code If-Match} fails that second run (its stale swap succeeds), so it is never given bare
     * ETags. The probe also learns whether the store answers 412 instead of 404 to {@code If-Match} on a missing key
     * (Ceph RGW does); if so, a refused swap is followed by a read that tells "not found" from "changed" (see
     * {@link #write}).
     *
     * <p>A store whose DELETE ignores {@code If-Match} (Ceph RGW) is reported with
     * {@link Capability#CONDITIONAL_DELETE} {@link Support#NOT_SUPPORTED} and a warning logged once: electors that
     * release by writing an expired record (the default) are safe on it, release by DELETE is refused by
     * {@link StoreCapabilities#requireFor(boolean)}.
     *
     * @throws BackendException when the store could not be asked (unreachable, access denied, no such bucket, ...),
     *                          or answered 501 NotImplemented to a conditional request (kind
     *                          {@link BackendException.Kind#CONDITIONAL_WRITES_NOT_SUPPORTED}, as Backblaze B2 is
     *                          reported to); nothing is remembered then, so the next call probes again
     */
    @Override
    public StoreCapabilities verify() throws BackendException {
        Verification known = verification;
        if (known != null) {
            return known.capabilities();
        }
        synchronized (verifying) {
            if (verification == null) {
                verification = probe ? probe() : new Verification(StoreCapabilities.builder(describe())
                        .handleForm(formName(ifMatchForm)).build(), null, null);
            }
            return verification.capabilities();
        }
    }

    /**
     * Runs the probe now, even if it ran before or was switched off on the builder, remembers its report (see
     * {@link #verify()}), and throws unless the store honours every conditional request, DELETE included.
     *
     * <p>This is stricter than an elector needs: an elector that releases by writing an expired record runs on a
     * store without a conditional DELETE. Prefer {@link #verify()} with
     * {@link StoreCapabilities#requireFor(boolean)}, which refuses only what the caller needs.
     *
     * @throws BackendException of kind {@link BackendException.Kind#CONDITIONAL_WRITES_NOT_SUPPORTED} when the store
     *                          failed a check, or any other kind when the store could not be asked
     */
    public void verifyConditionalWrites() throws BackendException {
        Verification probed;
        synchronized (verifying) {
            probed = probe();
            verification = probed;
        }
        if (probed.strictFailure() != null) {
            throw probed.strictFailure();
        }
    }

    /**
     * Fails when the store lacks what every elector needs (a conditional create and swap), with the probe's message;
     * for {@link S3BackendBuilder#build()}.
     */
    void requireCreateAndSwap() throws BackendException {
        verify();
        Verification known = Objects.requireNonNull(verification, "verify() remembers what it found");
        if (known.electionFailure() != null) {
            throw known.electionFailure();
        }
    }

    /**
     * What the probe found: the report, the failure of the create or swap checks (null when both hold), and the first
     * failure of any check (null when all hold).
     */
    private record Verification(StoreCapabilities capabilities, @Nullable BackendException electionFailure,
            @Nullable BackendException strictFailure) {
    }

    private Verification probe() throws BackendException {
        if (fixedForm != null) {
            return remember(new ConditionalWriteProbe(probing(fixedForm), requestTimeout).check(), fixedForm, "");
        }
        ConditionalWriteProbe.Verdict asReceived = new ConditionalWriteProbe(probing(IfMatchForm.AS_RECEIVED),
                requestTimeout).check();
        if (asReceived.failedCheck() != ConditionalWriteProbe.Check.SWAP_WITH_CURRENT_HANDLE) {
            return remember(asReceived, IfMatchForm.AS_RECEIVED, "");
        }
        ConditionalWriteProbe.Verdict bare = new ConditionalWriteProbe(probing(IfMatchForm.BARE), requestTimeout)
                .check();
        if (!bare.createAndSwapVerified()) {
            return remember(bare, IfMatchForm.AS_RECEIVED, " (The probe sent bare ETags because the store had refused"
                    + " If-Match with the current ETag as it sent it, quoted.)");
        }
        log.info("hoplock: {} refused If-Match with the current ETag as it sends it (quoted) and honours it bare, so"
                + " this backend sends ETags bare from now on", location.endpointDescription());
        return remember(bare, IfMatchForm.BARE, "");
    }

    /** Adopts what a probe run found (form, 412-on-missing-key) and logs a missing DELETE condition once. */
    private Verification remember(ConditionalWriteProbe.Verdict verdict, IfMatchForm form, String note) {
        BackendException failure = verdict.failure() == null ? null
                : new BackendException(verdict.failure().kind(), verdict.failure().getMessage() + note);
        StoreCapabilities capabilities = verdict.capabilities(describe(), formName(form));
        if (verdict.createAndSwapVerified()) {
            ifMatchForm = form;
            missingKeyRefusedAs412 = verdict.missingKeySwap() == WriteResult.Refusal.PRECONDITION_FAILED;
            if (missingKeyRefusedAs412) {
                log.info("hoplock: {} answers 412 (not 404) to If-Match on a missing key; a refused swap is followed"
                        + " by a read that tells 'not found' from 'changed'", location.endpointDescription());
            }
            if (!capabilities.has(Capability.CONDITIONAL_DELETE)) {
                log.warn("hoplock: {} does not honour If-Match on DELETE ({}). Electors that release by writing an"
                        + " expired record (the default) are safe on it; release by DELETE (releaseByDelete) is"
                        + " refused on it.", describe(), capabilities.detail(Capability.CONDITIONAL_DELETE));
            }
        }
        log.debug("hoplock: {} capabilities: {}", describe(), capabilities.summary());
        return new Verification(capabilities, verdict.createAndSwapVerified() ? null : failure, failure);
    }

    private static String formName(IfMatchForm form) {
        return form == IfMatchForm.BARE ? "bare ETag in If-Match" : StoreCapabilities.HANDLES_AS_RECEIVED;
    }

    /** The {@code If-Match} form this backend sends: fixed by the builder, or chosen by the probe. */
    public IfMatchForm ifMatchForm() {
        return ifMatchForm;
    }

    /** The object key that holds {@code leaseKey}: the prefix followed by the key. */
    public String objectKey(String leaseKey) {
        return location.objectKey(leaseKey);
    }

    /** {@code s3://bucket/prefix}, followed by {@code at <endpoint>} when the endpoint is overridden. */
    @Override
    public String describe() {
        return location.describe();
    }

    /** Closes the S3 client if this backend created it; a client passed in by the caller stays open. */
    @Override
    public void close() {
        if (ownsClient) {
            client.close();
        }
    }

    @Override
    public String toString() {
        return "S3Backend[" + location.describe() + "]";
    }

    /** This backend with the given {@code If-Match} form, for the probe. */
    private Backend probing(IfMatchForm form) {
        return new Backend() {
            @Override
            public Optional<StoredObject> read(String key, Duration timeout) throws BackendException {
                return S3Backend.this.read(key, timeout);
            }

            @Override
            public WriteResult write(String key, Handle expected, byte[] content, Duration timeout)
                    throws BackendException {
                return S3Backend.this.write(key, expected, content, timeout, form, false);
            }

            @Override
            public DeleteResult delete(String key, Handle expected, Duration timeout) throws BackendException {
                return S3Backend.this.delete(key, expected, timeout, form);
            }

            @Override
            public String describe() {
                return form == IfMatchForm.BARE ? S3Backend.this.describe() + " (with If-Match ETags sent bare)"
                        : S3Backend.this.describe();
            }
        };
    }
    /** The caller's timeout, capped by the configured request timeout. */
    private CallBudget budget(Duration timeout) throws BackendException {
        return CallBudget.forCall(timeout, requestTimeout, () -> "a request to " + location.describe());
    }
}
