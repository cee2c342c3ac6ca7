package dev.hoplock.nats;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.test.BackendContractTest;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.TestInstance;

import java.time.Duration;

/**
 * The whole backend contract, races and the re-created container included, for {@link NatsBackend} on a real
 * nats-server with JetStream (one bucket of its own, created by the backend with a random first revision, deleted
 * afterwards). {@link #recreateContainer()} deletes the bucket's stream and lets a second backend create it again, as
 * an operator or another process could while the backend under test runs.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NatsBackendContractTest extends BackendContractTest {

    private final String bucket = TestNats.newBucket("contract");
    private @Nullable NatsBackend backend;

    @Override
    protected Backend backend() throws Exception {
        if (backend == null) {
            backend = TestNats.backend(bucket);
        }
        return backend;
    }

    @Override
    protected void recreateContainer() throws Exception {
        TestNats.deleteBucket(bucket);
        TestNats.backend(bucket).close();
    }

    @Override
    protected Duration timeout() {
        return Duration.ofSeconds(5);
    }

    @AfterAll
    void deleteBucket() throws Exception {
        if (backend != null) {
            backend.close();
        }
        TestNats.deleteBucket(bucket);
    }
}
