package dev.hoplock.s3;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.s3.server.CephRgw;
import dev.hoplock.test.BackendContractTest;
import dev.hoplock.test.SharedBackend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.s3.S3Client;

import java.time.Duration;

/**
 * The backend contract, races included, for {@link S3Backend} against a real Ceph RADOS Gateway (run with
 * {@code -Pceph}). The backend is verified as in production, so the tests of a conditional DELETE, which RGW does
 * not honour, are skipped with that reason; everything an elector relies on runs.
 */
@Tag("ceph")
@ExtendWith(CephRgw.Extension.class)
class CephRgwBackendContractTest extends BackendContractTest {

    private static final SharedBackend<S3Backend> SHARED = new SharedBackend<>(S3Backend::close);

    private final CephRgw rgw;

    CephRgwBackendContractTest(CephRgw rgw) {
        this.rgw = rgw;
    }

    static S3BackendBuilder builder(CephRgw rgw, String prefix) {
        return S3Backend.builder().endpoint(rgw.endpoint()).pathStyle(true).region("us-east-1")
                .credentials(rgw.accessKey(), rgw.secretKey()).bucket(rgw.bucket()).prefix(prefix)
                .requestTimeout(Duration.ofSeconds(10)).connectTimeout(Duration.ofSeconds(2));
    }

    @Override
    protected Backend backend() throws Exception {
        return SHARED.get(() -> builder(rgw, TestS3.uniquePrefix("contract")).build());
    }

    @AfterAll
    static void closeBackend() throws Exception {
        SHARED.close();
    }

    /** Deletes every object under the backend's prefix, the S3 store's container (the bucket is shared). */
    @Override
    protected void recreateContainer() {
        try (S3Client client = rgw.rawClient()) {
            TestS3.emptyPrefix(client, rgw.bucket(), (S3Backend) store());
        }
    }

    @Override
    protected Duration timeout() {
        return Duration.ofSeconds(10);
    }
}
