package dev.hoplock.s3;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.s3.server.S3MockExtension;
import dev.hoplock.s3.server.S3MockServer;
import dev.hoplock.test.ElectorFuzzTest;
import org.jspecify.annotations.Nullable;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The elector fuzz run over {@link S3Backend} against the shared S3Mock server (one request thread), on a prefix of
 * its own. The TTL is longer than the in-memory run's because every elector's requests queue behind one server
 * thread.
 */
@ExtendWith(S3MockExtension.class)
class S3ElectorFuzzTest extends ElectorFuzzTest {

    private final S3MockServer server;
    private @Nullable S3Backend backend;

    S3ElectorFuzzTest(S3MockServer server) {
        this.server = server;
    }

    @Override
    protected Backend backend() {
        backend = TestS3.backend(server.endpoint(), server.bucket(), TestS3.uniquePrefix("fuzz"));
        return backend;
    }

    @Override
    protected Duration ttl() {
        return Duration.ofMillis(1500);
    }

    @AfterEach
    void closeBackend() {
        if (backend != null) {
            backend.close();
        }
    }
}
