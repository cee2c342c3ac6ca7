package dev.hoplock.s3;

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
 * Turns an SDK failure that is not one of the protocol's expected answers (412, 409, 404) into a
 * {@link BackendException} whose kind says whether to retry and whose message says what to fix: the permission
 * and resource for a 403, the bucket for a missing bucket, the endpoint when it cannot be reached. Messages never
 * contain credentials; text from the server is {@linkplain Redaction cleaned} first, and a server's error answer
 * is not attached as the cause (its SDK message would carry the raw text).
 */
final class S3ErrorTranslator {

    private static final Set<String> CREDENTIAL_ERRORS = Set.of("InvalidAccessKeyId", "SignatureDoesNotMatch",
            "ExpiredToken", "InvalidToken", "TokenRefreshRequired", "InvalidSecurity", "AuthorizationHeaderMalformed");

    private final S3Location location;

    S3ErrorTranslator(S3Location location) {
        this.location = location;
    }

    BackendException translate(SdkException e, S3Operation op, String objectKey, Duration budget) {
        if (e instanceof AwsServiceException service) {
            return serviceError(service, op, objectKey);
        }
        return clientError(e, op, objectKey, budget);
    }

    private BackendException serviceError(AwsServiceException e, S3Operation op, String objectKey) {
        int status = e.statusCode();
        String code = S3Responses.errorCode(e);
        String target = op.apiName() + " " + location.uri(objectKey);
        String answered = location.endpointDescription() + " answered " + status + (code.isEmpty() ? "" : " " + code)
                + " to " + target;
        String said = serverMessage(e);
        // The SDK exception is not attached as the cause: its message repeats the server's text unredacted, and
        // everything useful in it (status, code, cleaned message, request id) is in ours.

        if (S3Responses.NO_SUCH_BUCKET.equals(code)) {
            return new BackendException(Kind.MISSING_CONTAINER, "the S3 bucket '" + location.bucket()
                    + "' does not exist at " + location.endpointDescription()
                    + ": create it, or fix the bucket name (or the region or endpoint)" + said);
        }
        if (CREDENTIAL_ERRORS.contains(code)) {
            return new BackendException(Kind.ACCESS_DENIED, answered + ": the credentials were not accepted;"
                    + " check the access key id, secret key, session token and region" + said);
        }
        if (status == 403) {
            String hint = op == S3Operation.GET
                    ? " (S3 also answers 403 instead of 404 for a key that does not exist yet when s3:ListBucket on"
                    + " arn:aws:s3:::" + location.bucket() + " is not granted)"
                    : "";
            return new BackendException(Kind.ACCESS_DENIED, answered + ": access denied; the credentials need "
                    + op.permission() + " on " + location.arn(objectKey) + hint + said);
        }
        if (status == 301 || "PermanentRedirect".equals(code) || "IllegalLocationConstraintException".equals(code)) {
            String region = e.awsErrorDetails() == null || e.awsErrorDetails().sdkHttpResponse() == null ? ""
                    : e.awsErrorDetails().sdkHttpResponse().firstMatchingHeader("x-amz-bucket-region").orElse("");
            return new BackendException(Kind.MISCONFIGURED, answered + ": the bucket is in another region"
                    + (region.isEmpty() ? "" : " (" + region + ")") + "; set the region to the bucket's region" + said);
        }
        if (status == 501) {
            return new BackendException(Kind.CONDITIONAL_WRITES_NOT_SUPPORTED, answered + ": the store does not"
                    + " implement this request (If-Match / If-None-Match conditional writes are required)" + said);
        }
        if (status == 429 || status >= 500 || status == 409 || status == 408 || "SlowDown".equals(code)
                || "RequestTimeout".equals(code)) {
            return new BackendException(Kind.TRANSIENT, answered + outcome(op) + said);
        }
        return new BackendException(Kind.MISCONFIGURED, answered + ": unexpected answer; check the bucket, prefix,"
                + " endpoint and path-style settings" + said);
    }

    private BackendException clientError(SdkException e, S3Operation op, String objectKey, Duration budget) {
        String target = op.apiName() + " " + location.uri(objectKey);
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
            return new BackendException(Kind.UNREACHABLE, "cannot reach the S3 endpoint "
                    + location.endpointDescription() + " (" + why + ") for " + target
                    + "; check the endpoint URL and that the store is running" + outcome(op), e);
        }
        if (e instanceof ApiCallTimeoutException || e instanceof ApiCallAttemptTimeoutException || timeout != null
                || cause(e, InterruptedIOException.class) != null) {
            return new BackendException(Kind.TRANSIENT, "no final answer from " + location.endpointDescription()
                    + " within " + format(budget) + " to " + target + " (the store did not answer, or kept answering"
                    + " with errors that the SDK retries: 5xx, throttling)" + outcome(op), e);
        }
        if (e instanceof AbortedException || cause(e, InterruptedException.class) != null) {
            return new BackendException(Kind.TRANSIENT, target + " was interrupted" + outcome(op), e);
        }
        String message = e.getMessage() == null ? "" : e.getMessage();
        if (message.toLowerCase(Locale.ROOT).contains("credentials")) {
            return new BackendException(Kind.ACCESS_DENIED, "no usable AWS credentials for " + target
                    + ": configure the default provider chain (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, a profile,"
                    + " or an instance or container role) or give static credentials to the S3 backend builder ("
                    + Redaction.clean(message) + ")", e);
        }
        return new BackendException(Kind.TRANSIENT, target + " at " + location.endpointDescription() + " failed: "
                + Redaction.clean(message) + outcome(op), e);
    }

    private static String outcome(S3Operation op) {
        return op == S3Operation.GET ? "" : "; the outcome of the " + op.apiName() + " is unknown";
    }

    private static String serverMessage(AwsServiceException e) {
        String message = e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorMessage();
        String cleaned = Redaction.clean(message);
        String requestId = e.requestId() == null ? "" : Redaction.clean(e.requestId());
        String said = cleaned.isEmpty() ? "" : " (server said: " + cleaned + ")";
        return requestId.isEmpty() ? said : said + " [request id " + requestId + "]";
    }

    private static String format(Duration d) {
        return d.toMillis() + " ms";
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
