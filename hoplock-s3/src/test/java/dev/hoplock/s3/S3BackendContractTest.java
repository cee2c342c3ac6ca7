package dev.hoplock.s3;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.s3.server.S3MockExtension;
import dev.hoplock.s3.server.S3MockServer;
import dev.hoplock.test.BackendContractTest;
import dev.hoplock.test.SharedBackend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.s3.S3Client;

import java.time.Duration;

/**
 * The backend contract, races included, for {@link S3Backend} against S3Mock (one request thread, as the
 * test-server note requires for atomic preconditions). All tests share one backend and one prefix; the contract
 * gives every test its own keys.
 */
@ExtendWith(S3MockExtension.class)
class S3BackendContractTest extends BackendContractTest {

    private static final SharedBackend<S3Backend> SHARED = new SharedBackend<>(S3Backend::close);

    private final S3MockServer server;

    S3BackendContractTest(S3MockServer server) {
        this.server = server;
    }

    @Override
    protected Backend backend() throws Exception {
        return SHARED.get(() -> TestS3.backend(server.endpoint(), server.bucket(), TestS3.uniquePrefix("contract")));
    }

    @AfterAll
    static void closeBackend() throws Exception {
        SHARED.close();
    }

    /** Deletes every object under the backend's prefix, the S3 store's container (the bucket is shared). */
    @Override
    protected void recreateContainer() {
        try (S3Client client = TestS3.rawClient(server.endpoint())) {
            TestS3.emptyPrefix(client, server.bucket(), (S3Backend) store());
        }
    }

    @Override
    protected Duration timeout() {
        return Duration.ofSeconds(10);
    }

    @Override
    protected int raceWriters() {
        return 32;
    }

    @Override
    protected int raceRounds() {
        return 20;
    }
}
