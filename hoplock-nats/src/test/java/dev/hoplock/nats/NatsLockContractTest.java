package dev.hoplock.nats;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.test.LockContractTest;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.TestInstance;

/** The named-lock contract for {@link NatsBackend} on a real nats-server, on a bucket of its own. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NatsLockContractTest extends LockContractTest {

    private final String bucket = TestNats.newBucket("locks");
    private @Nullable NatsBackend backend;

    @Override
    protected Backend backend() throws Exception {
        if (backend == null) {
            backend = TestNats.backend(bucket);
        }
        return backend;
    }

    @AfterAll
    void deleteBucket() throws Exception {
        if (backend != null) {
            backend.close();
        }
        TestNats.deleteBucket(bucket);
    }
}
