package dev.hoplock.s3;

import dev.hoplock.core.backend.BackendException;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.S3Object;

import java.net.URI;
import java.time.Duration;
import java.util.UUID;

/** Builders for the tests: backends and plain S3 clients pointed at a local server, each test on its own prefix. */
final class TestS3 {

    static final String ACCESS_KEY_ID = "test-access-key";
    static final String SECRET_KEY = "test-secret-key";

    private TestS3() {
    }

    /** A fresh prefix, so that tests sharing one bucket never see each other's objects. */
    static String uniquePrefix(String name) {
        return "t/" + name + "-" + UUID.randomUUID().toString().substring(0, 8) + "/";
    }

    /** A builder for a local server: endpoint, path style, static test credentials, short timeouts. */
    static S3BackendBuilder builder(URI endpoint, String bucket, String prefix) {
        return S3Backend.builder()
                .endpoint(endpoint)
                .pathStyle(true)
                .region("us-east-1")
                .credentials(ACCESS_KEY_ID, SECRET_KEY)
                .bucket(bucket)
                .prefix(prefix)
                .requestTimeout(Duration.ofSeconds(5))
                .connectTimeout(Duration.ofSeconds(1));
    }

    /** A backend for a local server, without the probe (the probe has its own tests). */
    static S3Backend backend(URI endpoint, String bucket, String prefix) {
        try {
            return builder(endpoint, bucket, prefix).verifyConditionalWrites(false).build();
        } catch (BackendException e) {
            throw new AssertionError("building without the probe contacts nothing, so cannot fail: " + e, e);
        }
    }

    /** A plain S3 client for planting and inspecting objects without going through the backend. */
    static S3Client rawClient(URI endpoint) {
        return S3Client.builder()
                .endpointOverride(endpoint)
                .forcePathStyle(true)
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(ACCESS_KEY_ID, SECRET_KEY)))
                .httpClientBuilder(UrlConnectionHttpClient.builder())
                .build();
    }

    /**
     * Deletes every object of {@code backend}'s prefix (unconditionally, as an operator emptying it would): the
     * S3 store's container is the prefix, so this re-creates it empty. The bucket itself stays.
     */
    static void emptyPrefix(S3Client client, String bucket, S3Backend backend) {
        String prefix = backend.objectKey("x");
        String under = prefix.substring(0, prefix.length() - 1);
        for (S3Object object : client.listObjectsV2Paginator(ListObjectsV2Request.builder().bucket(bucket)
                .prefix(under).build()).contents()) {
            client.deleteObject(delete -> delete.bucket(bucket).key(object.key()));
        }
    }
}
