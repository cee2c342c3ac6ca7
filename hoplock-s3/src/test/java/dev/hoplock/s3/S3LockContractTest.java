package dev.hoplock.s3;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.s3.server.S3MockExtension;
import dev.hoplock.s3.server.S3MockServer;
import dev.hoplock.test.LockContractTest;
import dev.hoplock.test.SharedBackend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The named-lock contract for {@link S3Backend} against the S3 test server. All tests share one backend and one
 * prefix; the contract gives every test its own lock names.
 */
@ExtendWith(S3MockExtension.class)
class S3LockContractTest extends LockContractTest {

    private static final SharedBackend<S3Backend> SHARED = new SharedBackend<>(S3Backend::close);

    private final S3MockServer server;

    S3LockContractTest(S3MockServer server) {
        this.server = server;
    }

    @Override
    protected Backend backend() throws Exception {
        return SHARED.get(() -> TestS3.backend(server.endpoint(), server.bucket(), TestS3.uniquePrefix("locks")));
    }

    @AfterAll
    static void closeBackend() throws Exception {
        SHARED.close();
    }
}
