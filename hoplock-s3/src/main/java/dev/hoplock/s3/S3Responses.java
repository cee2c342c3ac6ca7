package dev.hoplock.s3;

import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;

/** Reads the HTTP status and S3 error code out of an SDK exception, for the few answers the protocol expects. */
final class S3Responses {

    static final String NO_SUCH_BUCKET = "NoSuchBucket";

    private S3Responses() {
    }

    /** The HTTP status of a service answer, or 0 when the exception is not one (no answer at all). */
    static int status(SdkException e) {
        return e instanceof AwsServiceException service ? service.statusCode() : 0;
    }

    /** The S3 error code ({@code NoSuchKey}, {@code AccessDenied}, ...), or "" when there is none. */
    static String errorCode(SdkException e) {
        if (e instanceof AwsServiceException service && service.awsErrorDetails() != null
                && service.awsErrorDetails().errorCode() != null) {
            return service.awsErrorDetails().errorCode();
        }
        return "";
    }

    /** 412: the condition did not hold. */
    static boolean isPreconditionFailed(SdkException e) {
        return status(e) == 412;
    }

    /**
     * 409 on a conditional request: another write or delete of the key was in flight and won (AWS sends
     * {@code ConditionalRequestConflict} for concurrent conditional writes and a plain 409 Conflict for a concurrent
     * delete). The request did not take effect; a lost race.
     */
    static boolean isConditionalConflict(SdkException e) {
        return status(e) == 409;
    }

    /** 404 for the object (not for the bucket). */
    static boolean isMissingObject(SdkException e) {
        return status(e) == 404 && !NO_SUCH_BUCKET.equals(errorCode(e));
    }
}
