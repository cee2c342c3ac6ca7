package dev.hoplock.azure.blob;

import com.azure.core.exception.ClientAuthenticationException;
import com.azure.core.exception.HttpResponseException;
import com.azure.storage.blob.models.BlobStorageException;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.BackendException.Kind;
import org.jspecify.annotations.Nullable;

import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.PortUnreachableException;
import java.net.SocketTimeoutException;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.TimeoutException;

/**
 * Turns a failure that is not one of the protocol's expected answers (412 and 409 refusals, 404 of a blob) into a
 * {@link BackendException} whose kind says whether to retry and whose message says what to fix: the role or SAS
 * permission for a 403, the container when it is missing, the endpoint when it cannot be reached. Messages never
 * contain credentials: text from the service or the SDK is {@linkplain Redaction cleaned}, and a service's error
 * answer is not attached as the cause (its SDK message carries the raw body, which can echo the request's signature).
 * A client-side failure is attached as the cause only {@linkplain Redaction#safeCause made safe}: the HTTP client's or
 * the URI parser's message can quote the request URL, SAS token included.
 */
final class BlobErrors {

    static final String BLOB_NOT_FOUND = "BlobNotFound";
    static final String CONTAINER_NOT_FOUND = "ContainerNotFound";
    static final String CONDITION_NOT_MET = "ConditionNotMet";
    static final String BLOB_ALREADY_EXISTS = "BlobAlreadyExists";
    static final String INVALID_RANGE = "InvalidRange";

    private static final Set<String> CREDENTIALS_REFUSED = Set.of("AuthenticationFailed", "InvalidAuthenticationInfo",
            "NoAuthenticationInformation");
    private static final Set<String> AZURE_LEASE = Set.of("LeaseIdMissing", "LeaseIdMismatchWithBlobOperation",
            "LeaseLost", "LeaseNotPresentWithBlobOperation");
    private static final Set<String> RETRYABLE = Set.of("ServerBusy", "InternalError", "OperationTimedOut",
            "SystemInUse", "ContainerBeingDeleted");

    private final BlobLocation location;
    private final Redaction redaction;

    BlobErrors(BlobLocation location, Redaction redaction) {
        this.location = location;
        this.redaction = redaction;
    }

    Redaction redaction() {
        return redaction;
    }

    /** The error code of a service answer ({@code x-ms-error-code}), or "" when it has none. */
    static String code(HttpResponseException e) {
        if (e instanceof BlobStorageException blob && blob.getErrorCode() != null) {
            return blob.getErrorCode().toString();
        }
        String header = e.getResponse() == null ? null : e.getResponse().getHeaderValue("x-ms-error-code");
        return header == null ? "" : header;
    }

    static boolean is(HttpResponseException e, String code) {
        return code.equals(code(e));
    }

    /** 412 {@code ConditionNotMet} or 409 {@code BlobAlreadyExists}: a condition of the request did not hold. */
    static boolean isRefusal(HttpResponseException e) {
        String code = code(e);
        return CONDITION_NOT_MET.equals(code) || BLOB_ALREADY_EXISTS.equals(code)
                || code.isEmpty() && e.getResponse() != null && e.getResponse().getStatusCode() == 412;
    }

    /** 404 {@code BlobNotFound} (not a missing container, which is an error). */
    static boolean isBlobMissing(HttpResponseException e) {
        String code = code(e);
        return BLOB_NOT_FOUND.equals(code)
                || code.isEmpty() && e.getResponse() != null && e.getResponse().getStatusCode() == 404;
    }

    /** A failure of {@code op} on {@code blobName} that took {@code budget} at most. */
    BackendException translate(RuntimeException e, BlobOperation op, String blobName, Duration budget) {
        HttpResponseException service = (HttpResponseException) cause(e, HttpResponseException.class);
        if (service != null && service.getResponse() != null) {
            return serviceError(service, op, blobName);
        }
        return clientError(e, op, blobName, budget);
    }

    /**
     * A service's answer ({@link BlobStorageException}, or the plain {@link HttpResponseException} that some of the
     * SDK's synchronous calls throw): never attached as the cause, because its message is the raw body.
     */
    private BackendException serviceError(HttpResponseException e, BlobOperation op, String blobName) {
        int status = e.getResponse().getStatusCode();
        String code = code(e);
        String target = op.apiName() + " " + location.uri(blobName);
        String answered = "Azure Blob Storage at " + location.endpointDescription() + " answered " + status
                + (code.isEmpty() ? "" : " " + code) + " to " + target;
        String said = serverMessage(e);

        if (CONTAINER_NOT_FOUND.equals(code)) {
            return new BackendException(Kind.MISSING_CONTAINER, "the Azure Blob container '" + location.container()
                    + "' does not exist at " + location.endpointDescription() + ": create it (az storage container"
                    + " create --name " + location.container() + "), or fix the container name or the account"
                    + " endpoint" + said);
        }
        if (CREDENTIALS_REFUSED.contains(code) || status == 401 || status == 403
                && String.valueOf(e.getMessage()).contains("failed to authenticate")) {
            return new BackendException(Kind.ACCESS_DENIED, answered + ": the credentials were not accepted; check"
                    + " the account key or connection string, that the SAS token is complete, signed with a current"
                    + " key and not expired, or the identity behind the token credential" + said);
        }
        if (status == 403) {
            return new BackendException(Kind.ACCESS_DENIED, answered + ": access denied; the identity needs the data"
                    + " action " + op.dataAction() + " on the container " + location.container() + " (the role"
                    + " 'Storage Blob Data Contributor' has it), or a SAS with the permissions " + op.sasPermission()
                    + " (hoplock needs r, c, w and d), allowed from this address" + said);
        }
        if (AZURE_LEASE.contains(code)) {
            return new BackendException(Kind.MISCONFIGURED, answered + ": an Azure blob lease (not hoplock's) is"
                    + " held on this blob, so it cannot be written; break it (az storage blob lease break) and leave"
                    + " hoplock's blobs to hoplock" + said);
        }
        if ("InvalidBlobType".equals(code)) {
            return new BackendException(Kind.MISCONFIGURED, answered + ": the blob under this lease key is an append"
                    + " or page blob, not a block blob; delete it, or choose another prefix" + said);
        }
        if ("BlobImmutableDueToPolicy".equals(code) || "SnapshotsPresent".equals(code)) {
            return new BackendException(Kind.MISCONFIGURED, answered + ": the container's immutability policy,"
                    + " a legal hold or snapshots of the blob keep it from being changed; use a container without"
                    + " them for hoplock" + said);
        }
        if ("InvalidHeaderValue".equals(code) && String.valueOf(e.getMessage()).contains("x-ms-version")) {
            return new BackendException(Kind.MISCONFIGURED, answered + ": the endpoint does not support the API"
                    + " version this SDK sends (an older emulator? start Azurite with --skipApiVersionCheck, or"
                    + " upgrade it)" + said);
        }
        if (status == 429 || status >= 500 || RETRYABLE.contains(code) || status == 408) {
            return new BackendException(Kind.TRANSIENT, answered + outcome(op) + said);
        }
        return new BackendException(Kind.MISCONFIGURED, answered + ": unexpected answer; check the endpoint,"
                + " container and prefix" + said);
    }

    private BackendException clientError(RuntimeException e, BlobOperation op, String blobName, Duration budget) {
        String target = op.apiName() + " " + location.uri(blobName);
        Throwable unreachable = cause(e, ConnectException.class, UnknownHostException.class,
                NoRouteToHostException.class, PortUnreachableException.class, HttpConnectTimeoutException.class);
        if (unreachable != null) {
            String why = unreachable instanceof UnknownHostException ? "unknown host"
                    : unreachable instanceof HttpConnectTimeoutException ? "connection timed out"
                    : unreachable instanceof ConnectException ? "connection refused" : "no route to host";
            return new BackendException(Kind.UNREACHABLE, "cannot reach Azure Blob Storage at "
                    + location.endpointDescription() + " (" + why + ") for " + target
                    + "; check the endpoint (or the connection string's BlobEndpoint) and that the service is running"
                    + outcome(op), redaction.safeCause(e));
        }
        ClientAuthenticationException auth = (ClientAuthenticationException) cause(e,
                ClientAuthenticationException.class);
        if (auth != null) {
            return new BackendException(Kind.ACCESS_DENIED, "no token for " + target + ": the token credential"
                    + " could not authenticate (for DefaultAzureCredential: a managed identity, workload identity,"
                    + " the AZURE_CLIENT_ID / AZURE_TENANT_ID / AZURE_CLIENT_SECRET variables or an Azure CLI login)"
                    + " (" + redaction.clean(auth.getMessage()) + ")");
        }
        if (cause(e, TimeoutException.class, HttpTimeoutException.class, SocketTimeoutException.class,
                InterruptedIOException.class) != null || isBlockingTimeout(e)) {
            return new BackendException(Kind.TRANSIENT, "no final answer from Azure Blob Storage at "
                    + location.endpointDescription() + " within " + budget.toMillis() + " ms to " + target
                    + " (the service did not answer, or kept answering with errors that the SDK retries: 503"
                    + " ServerBusy, 500)" + outcome(op), redaction.safeCause(e));
        }
        if (cause(e, InterruptedException.class) != null) {
            return new BackendException(Kind.TRANSIENT, target + " was interrupted" + outcome(op),
                    redaction.safeCause(e));
        }
        if (cause(e, URISyntaxException.class) != null) {
            return new BackendException(Kind.MISCONFIGURED, target + " at " + location.endpointDescription()
                    + " failed: the request URL, with the SAS token appended, is not a valid URL; check that the SAS"
                    + " token (sasToken(...) or the connection string's SharedAccessSignature) is copied whole,"
                    + " without quotes or spaces" + outcome(op), redaction.safeCause(e));
        }
        return new BackendException(Kind.TRANSIENT, target + " at " + location.endpointDescription() + " failed: "
                + redaction.clean(e.getClass().getSimpleName() + ": " + e.getMessage()) + outcome(op),
                redaction.safeCause(e));
    }

    /** Reactor's {@code Mono.block(timeout)} throws an IllegalStateException without a cause when time runs out. */
    private static boolean isBlockingTimeout(RuntimeException e) {
        return e instanceof IllegalStateException && String.valueOf(e.getMessage()).startsWith("Timeout on blocking");
    }

    static String outcome(BlobOperation op) {
        return op.writes() ? "; the outcome of the " + op.apiName() + " is unknown" : "";
    }

    private String serverMessage(HttpResponseException e) {
        String cleaned = redaction.clean(messageElement(e.getMessage()));
        String requestId = e.getResponse() == null ? null : e.getResponse().getHeaderValue("x-ms-request-id");
        String said = cleaned.isEmpty() ? "" : " (service said: " + cleaned + ")";
        return requestId == null ? said : said + " [request id " + redaction.clean(requestId) + "]";
    }

    /** The first line of the {@code <Message>} of Azure's XML error body, or "" when there is none. */
    private static String messageElement(@Nullable String text) {
        if (text == null) {
            return "";
        }
        int start = text.indexOf("<Message>");
        int end = text.indexOf("</Message>");
        if (start < 0 || end < start) {
            return "";
        }
        String message = text.substring(start + "<Message>".length(), end);
        int line = message.indexOf('\n');
        return line < 0 ? message : message.substring(0, line);
    }

    @SafeVarargs
    static @Nullable Throwable cause(Throwable e, Class<? extends Throwable>... types) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            for (Class<? extends Throwable> type : types) {
                if (type.isInstance(t)) {
                    return t;
                }
            }
        }
        return null;
    }
}
