package dev.hoplock.s3;

import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.CallBudget;
import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.core.record.LeaseRecordCodec;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.AbortableInputStream;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;

import java.io.IOException;
import java.time.Duration;
import java.util.Optional;

/**
 * The S3 requests of one {@link S3Backend}, each sent with the time its {@link CallBudget} has left as the SDK's
 * API-call timeout, and how their answers map to hoplock's results: a GET reads at most one byte more than a lease
 * record may have; 412 and 409 on a conditional PUT or DELETE are refusals, 404 is not found; an object read or
 * written without an ETag is a {@link BackendException.Kind#MISCONFIGURED} error; every other failure is the
 * {@link S3ErrorTranslator}'s {@link BackendException}. Sends each request once (the SDK's own retries happen inside
 * the call timeout). Thread-safe.
 */
final class S3Requests {

    /** The SDK refuses a zero call timeout: a request sent with what is left gets at least this. */
    private static final Duration SDK_MINIMUM_TIMEOUT = Duration.ofMillis(1);

    private final S3Client client;
    private final S3Location location;
    private final S3ErrorTranslator errors;

    S3Requests(S3Client client, S3Location location) {
        this.client = client;
        this.location = location;
        this.errors = new S3ErrorTranslator(location);
    }

    /** Reads {@code objectKey}: empty if there is no object, else its start and its ETag. */
    Optional<StoredObject> get(String objectKey, CallBudget budget) throws BackendException {
        Fetched response;
        try {
            response = client.getObject(get -> get.bucket(location.bucket()).key(objectKey)
                    .overrideConfiguration(callTimeout(budget.remainingAtLeast(SDK_MINIMUM_TIMEOUT))),
                    Fetched::boundedRead);
        } catch (SdkException e) {
            if (S3Responses.isMissingObject(e)) {
                return Optional.empty();
            }
            throw errors.translate(e, S3Operation.GET, objectKey, budget.budget());
        }
        String etag = response.response().eTag();
        if (etag == null || etag.isEmpty()) {
            throw new BackendException(BackendException.Kind.MISCONFIGURED, location.endpointDescription()
                    + " returned " + location.uri(objectKey) + " without an ETag; hoplock needs ETags for"
                    + " compare-and-swap (is a proxy removing the ETag header?)");
        }
        return Optional.of(new StoredObject(response.bytes(), Handle.of(etag)));
    }

    /**
     * The start of an object: at most one byte more than a lease record may have, so that a huge object planted under
     * a lease key is reported as too large (and counts as held) instead of being loaded into memory.
     */
    private record Fetched(GetObjectResponse response, byte[] bytes) {
        static Fetched boundedRead(GetObjectResponse response, AbortableInputStream body) throws IOException {
            byte[] bytes = body.readNBytes(LeaseRecordCodec.MAX_SIZE + 1);
            if (bytes.length > LeaseRecordCodec.MAX_SIZE) {
                body.abort();
            }
            return new Fetched(response, bytes);
        }
    }

    /** Sends the conditional PUT and returns the ETag of the stored version (null or empty if the store sent none). */
    @Nullable String put(String objectKey, Handle expected, String condition, byte[] content, CallBudget deadline) {
        PutObjectResponse response = client.putObject(put -> {
            put.bucket(location.bucket()).key(objectKey).contentType(S3Backend.CONTENT_TYPE)
                    .overrideConfiguration(callTimeout(deadline.remainingAtLeast(SDK_MINIMUM_TIMEOUT)));
            if (expected.isNone()) {
                put.ifNoneMatch("*");
            } else {
                put.ifMatch(condition);
            }
        }, RequestBody.fromBytes(content));
        return response.eTag();
    }

    /** The result of a PUT the store answered with {@code etag}; without an ETag, a MISCONFIGURED error. */
    WriteResult written(String objectKey, @Nullable String etag) throws BackendException {
        if (etag == null || etag.isEmpty()) {
            // Stored, but without a handle nobody can renew it; the outcome counts as unknown.
            throw new BackendException(BackendException.Kind.MISCONFIGURED, location.endpointDescription()
                    + " stored " + location.uri(objectKey) + " but answered without an ETag; hoplock needs ETags for"
                    + " compare-and-swap (is a proxy removing the ETag header?)");
        }
        return WriteResult.written(Handle.of(etag));
    }

    /** Sends the DELETE with {@code If-Match: condition}; DELETED unless the SDK throws. */
    DeleteResult delete(String objectKey, String condition, CallBudget deadline) {
        client.deleteObject(delete -> delete.bucket(location.bucket()).key(objectKey).ifMatch(condition)
                .overrideConfiguration(callTimeout(deadline.remainingAtLeast(SDK_MINIMUM_TIMEOUT))));
        return DeleteResult.DELETED;
    }

    /** A refused or failed PUT: 412 or 409 is a refusal, 404 not found, anything else thrown, translated. */
    WriteResult writeRefusal(SdkException e, String objectKey, CallBudget deadline) throws BackendException {
        if (S3Responses.isPreconditionFailed(e) || S3Responses.isConditionalConflict(e)) {
            return WriteResult.preconditionFailed();
        }
        if (S3Responses.isMissingObject(e)) {
            return WriteResult.notFound();
        }
        throw errors.translate(e, S3Operation.PUT, objectKey, deadline.budget());
    }

    /** A refused or failed DELETE: 412 or 409 is a refusal, 404 not found, anything else thrown, translated. */
    DeleteResult deleteRefusal(SdkException e, String objectKey, CallBudget deadline) throws BackendException {
        if (S3Responses.isPreconditionFailed(e) || S3Responses.isConditionalConflict(e)) {
            return DeleteResult.PRECONDITION_FAILED;
        }
        if (S3Responses.isMissingObject(e)) {
            return DeleteResult.NOT_FOUND;
        }
        throw errors.translate(e, S3Operation.DELETE, objectKey, deadline.budget());
    }

    private static AwsRequestOverrideConfiguration callTimeout(Duration timeout) {
        return AwsRequestOverrideConfiguration.builder().apiCallTimeout(timeout).build();
    }
}
