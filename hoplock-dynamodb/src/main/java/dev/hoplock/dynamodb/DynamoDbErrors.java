package dev.hoplock.dynamodb;

import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.BackendException.Kind;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.AbortedException;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkException;

import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.PortUnreachableException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;

/**
 * Turns an SDK failure that is not one of the protocol's expected answers ({@code ConditionalCheckFailedException})
 * into a {@link BackendException} whose kind says whether to retry and whose message says what to fix: the IAM action
 * and table for an access denial, the table for a missing one, the endpoint when it cannot be reached, the size for an
 * item that does not fit. Messages never contain credentials: text from the server is {@linkplain Redaction cleaned},
 * and a server's error answer is not attached as the cause (its SDK message carries the raw text).
 */
final class DynamoDbErrors {

    static final String RESOURCE_NOT_FOUND = "ResourceNotFoundException";

    private static final Set<String> CREDENTIALS_REFUSED = Set.of("UnrecognizedClientException",
            "InvalidSignatureException", "ExpiredTokenException", "MissingAuthenticationTokenException",
            "IncompleteSignatureException", "InvalidClientTokenId", "SignatureDoesNotMatch", "ExpiredToken");
    private static final Set<String> RETRYABLE = Set.of("ProvisionedThroughputExceededException",
            "ThrottlingException", "RequestLimitExceeded", "InternalServerError", "ServiceUnavailable",
            "TransactionConflictException", "ResourceInUseException", "LimitExceededException");

    private final LeaseTable table;
    private final Redaction redaction;

    DynamoDbErrors(LeaseTable table, Redaction redaction) {
        this.table = table;
        this.redaction = redaction;
    }

    static String code(AwsServiceException e) {
        return e.awsErrorDetails() == null || e.awsErrorDetails().errorCode() == null ? ""
                : e.awsErrorDetails().errorCode();
    }

    /** A failure of {@code op} on {@code target} (an item or the table, in words) that had {@code budget} at most. */
    BackendException translate(SdkException e, DynamoDbOperation op, String target, Duration budget) {
        if (e instanceof AwsServiceException service) {
            return serviceError(service, op, target);
        }
        return clientError(e, op, target, budget);
    }

    private BackendException serviceError(AwsServiceException e, DynamoDbOperation op, String target) {
        int status = e.statusCode();
        String code = code(e);
        String answered = table.endpointDescription() + " answered " + status + (code.isEmpty() ? "" : " " + code)
                + " to " + op.apiName() + " of the " + target;
        String message = e.awsErrorDetails() == null ? "" : String.valueOf(e.awsErrorDetails().errorMessage());
        String said = serverMessage(e);
        // The SDK exception is not attached as the cause: its message repeats the server's text unredacted.

        if (RESOURCE_NOT_FOUND.equals(code)) {
            return new BackendException(Kind.MISSING_CONTAINER, "the DynamoDB table '" + table.name() + "' does not"
                    + " exist at " + table.endpointDescription() + ": create it (partition key '"
                    + table.keyAttribute() + "' of type S, no sort key; see the hoplock DynamoDB documentation), let"
                    + " hoplock create it (tableCreation(CREATE_IF_MISSING)), or fix the table name or region" + said);
        }
        if (CREDENTIALS_REFUSED.contains(code)) {
            return new BackendException(Kind.ACCESS_DENIED, answered + ": the credentials were not accepted; check"
                    + " the access key id, secret key, session token and region" + said);
        }
        if ("AccessDeniedException".equals(code) || status == 403) {
            return new BackendException(Kind.ACCESS_DENIED, answered + ": access denied; the credentials need "
                    + op.permission() + " on " + table.arn() + " (the least-privilege policy in the hoplock DynamoDB"
                    + " documentation lists every action)" + said);
        }
        if ("ValidationException".equals(code)) {
            String lower = message.toLowerCase(Locale.ROOT);
            if (lower.contains("item size") || lower.contains("size has exceeded")) {
                return new BackendException(Kind.MISCONFIGURED, answered + ": the item is larger than DynamoDB's"
                        + " 400 KB limit; a lease record is at most 64 KiB, so this is no lease record: write"
                        + " smaller content" + said);
            }
            if (lower.contains("key") && (lower.contains("schema") || lower.contains("required keys")
                    || lower.contains("missing the key"))) {
                return new BackendException(Kind.MISCONFIGURED, answered + ": the table's key does not match what"
                        + " hoplock writes (partition key '" + table.keyAttribute() + "' of type S, no sort key);"
                        + " give hoplock a table with that key, or set keyAttribute(...) to the table's partition key"
                        + said);
            }
            return new BackendException(Kind.MISCONFIGURED, answered + ": the request was refused as invalid" + said);
        }
        if ("UnknownOperationException".equals(code)) {
            return new BackendException(Kind.MISCONFIGURED, answered + ": the endpoint does not know this DynamoDB"
                    + " call; is it DynamoDB?" + said);
        }
        if (RETRYABLE.contains(code) || status == 429 || status >= 500) {
            return new BackendException(Kind.TRANSIENT, answered + outcome(op) + said);
        }
        return new BackendException(Kind.MISCONFIGURED, answered + ": unexpected answer; check the table, region and"
                + " endpoint" + said);
    }

    private BackendException clientError(SdkException e, DynamoDbOperation op, String target, Duration budget) {
        String what = op.apiName() + " of the " + target;
        Throwable unreachable = cause(e, ConnectException.class, UnknownHostException.class,
                NoRouteToHostException.class, PortUnreachableException.class);
        SocketTimeoutException timeout = (SocketTimeoutException) cause(e, SocketTimeoutException.class);
        if (unreachable == null && timeout != null && String.valueOf(timeout.getMessage()).contains("connect")) {
            unreachable = timeout;
        }
        if (unreachable != null) {
            String why = unreachable instanceof UnknownHostException ? "unknown host"
                    : unreachable instanceof SocketTimeoutException ? "connection timed out"
                    : unreachable instanceof ConnectException ? "connection refused" : "no route to host";
            return new BackendException(Kind.UNREACHABLE, "cannot reach " + table.endpointDescription() + " (" + why
                    + ") for " + what + "; check the endpoint URL and region, and that the service is running"
                    + outcome(op), e);
        }
        if (e instanceof ApiCallTimeoutException || e instanceof ApiCallAttemptTimeoutException || timeout != null
                || cause(e, InterruptedIOException.class) != null) {
            return new BackendException(Kind.TRANSIENT, "no final answer from " + table.endpointDescription()
                    + " within " + budget.toMillis() + " ms to " + what + " (the service did not answer, or kept"
                    + " answering with errors that the SDK retries: throttling, 5xx)" + outcome(op), e);
        }
        if (e instanceof AbortedException || cause(e, InterruptedException.class) != null) {
            return new BackendException(Kind.TRANSIENT, what + " was interrupted" + outcome(op), e);
        }
        String message = e.getMessage() == null ? "" : e.getMessage();
        if (message.toLowerCase(Locale.ROOT).contains("credentials")) {
            return new BackendException(Kind.ACCESS_DENIED, "no usable AWS credentials for " + what + ": configure"
                    + " the default provider chain (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, a profile, or an"
                    + " instance or container role) or give credentials to the DynamoDB backend builder ("
                    + redaction.clean(message) + ")", e);
        }
        return new BackendException(Kind.TRANSIENT, what + " at " + table.endpointDescription() + " failed: "
                + redaction.clean(message) + outcome(op), e);
    }

    static String outcome(DynamoDbOperation op) {
        return op.writes() ? "; the outcome of the " + op.apiName() + " is unknown" : "";
    }

    private String serverMessage(AwsServiceException e) {
        String message = e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorMessage();
        String cleaned = redaction.clean(message);
        String requestId = e.requestId() == null ? "" : redaction.clean(e.requestId());
        String said = cleaned.isEmpty() ? "" : " (server said: " + cleaned + ")";
        return requestId.isEmpty() ? said : said + " [request id " + requestId + "]";
    }

    @SafeVarargs
    private static @Nullable Throwable cause(Throwable e, Class<? extends Throwable>... types) {
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
