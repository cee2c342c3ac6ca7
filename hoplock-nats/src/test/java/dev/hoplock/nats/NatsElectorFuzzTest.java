package dev.hoplock.nats;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.test.ElectorFuzzTest;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;

import java.time.Duration;

/**
 * The elector fuzz run (real electors, injected stalls, closes and step-downs; no two leaders at once, rising fencing
 * tokens) over {@link NatsBackend} on a real nats-server, on a bucket of its own.
 */
class NatsElectorFuzzTest extends ElectorFuzzTest {

    private final String bucket = TestNats.newBucket("fuzz");
    private @Nullable NatsBackend backend;

    @Override
    protected Backend backend() throws Exception {
        if (backend == null) {
            backend = TestNats.backend(bucket);
        }
        return backend;
    }

    @Override
    protected Duration ttl() {
        return Duration.ofMillis(1500);
    }

    @AfterAll
    void deleteBucket() throws Exception {
        if (backend != null) {
            backend.close();
        }
        TestNats.deleteBucket(bucket);
    }
}
